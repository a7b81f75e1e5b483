import Foundation

/// The kernel's view of a page: whether the mapping that holds `address` is locked into RAM (the
/// `lo` flag of its VmFlags in /proc/self/smaps; mlock splits a mapping so that the locked pages
/// have one of their own). nil when /proc is not there (not Linux).
public func isLockedInRAM(_ address: UnsafeRawPointer) -> Bool? {
    // Read to the end: /proc files say they are empty to stat.
    guard let file = FileHandle(forReadingAtPath: "/proc/self/smaps"),
        let smaps = String(data: file.readDataToEndOfFile(), encoding: .utf8)
    else { return nil }
    let target = UInt(bitPattern: address)
    var inside = false
    for line in smaps.split(separator: "\n") {
        if let dash = line.firstIndex(of: "-"), let space = line.firstIndex(of: " "), dash < space,
            let start = UInt(line[..<dash], radix: 16), let end = UInt(line[line.index(after: dash)..<space], radix: 16)
        {
            inside = start <= target && target < end
        } else if inside, line.hasPrefix("VmFlags:") {
            return line.split(separator: " ").contains("lo")
        }
    }
    return false
}

/// Whether this process may lock any memory at all (RLIMIT_MEMLOCK above zero).
public var memoryLockAllowed: Bool {
    var limit = rlimit()
    guard getrlimit(__rlimit_resource_t(__RLIMIT_MEMLOCK.rawValue), &limit) == 0 else { return false }
    return limit.rlim_cur > 0
}

/// Whether a sanitizer runtime (ASan, TSan) is in this process: sanitizer_common replaces `mlock`
/// with a no-op that answers success (`make sanitize`), so no page is locked there and the kernel's
/// flag cannot be checked.
public let sanitizerReplacesMlock: Bool = dlsym(nil, "__tsan_init") != nil || dlsym(nil, "__asan_init") != nil
