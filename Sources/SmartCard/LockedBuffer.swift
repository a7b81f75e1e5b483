#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Memory for secrets (PIN, CAN, PUK, the TcToken's PSK, session keys, the JSON input line):
/// whole pages of its own (an anonymous mapping), zeroed when made and zeroed again before they are freed, locked into
/// RAM with `mlock` so that the kernel never writes them to swap, and kept out of core dumps
/// (`MADV_DONTDUMP`) where the system has it.
///
/// Locking can fail: RLIMIT_MEMLOCK (`ulimit -l`, 8 MiB on current Linux, 64 KiB on older ones)
/// is per process, and a container may forbid it. That is not an error: the buffer is used
/// unlocked (`isLocked` is false) and is zeroed all the same; only the swap protection is lost.
/// Each buffer has pages to itself, so unlocking one never unlocks another's page.
public final class LockedBuffer {
    /// The usable bytes (`count` of them; the pages behind may be larger).
    public let bytes: UnsafeMutableBufferPointer<UInt8>
    /// Whether `mlock` succeeded for the pages.
    public let isLocked: Bool
    private let pages: UnsafeMutableRawPointer
    private let pageBytes: Int

    /// `count` zero bytes (at least one page).
    public init(count: Int) {
        let size = Int(sysconf(Int32(_SC_PAGESIZE)))
        let pageSize = size > 0 ? size : 4096
        pageBytes = max(1, (max(count, 1) + pageSize - 1) / pageSize) * pageSize
        // A mapping of its own (zeroed by the kernel), not heap pages: locking and unlocking it
        // never splits the heap's mapping, and unmapping it returns the pages at once.
        let mapped = mmap(nil, pageBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
        guard let mapped, mapped != MAP_FAILED else {
            // Out of memory (or of mappings): as Swift's own allocation does.
            fatalError("LockedBuffer: cannot map \(pageBytes) bytes")
        }
        pages = mapped
        #if os(Linux)
        _ = madvise(pages, pageBytes, Int32(MADV_DONTDUMP))
        #endif
        isLocked = mlock(pages, pageBytes) == 0
        bytes = UnsafeMutableBufferPointer(start: pages.assumingMemoryBound(to: UInt8.self), count: count)
    }

    deinit {
        explicit_bzero(pages, pageBytes)
        if isLocked { _ = munlock(pages, pageBytes) }
        _ = munmap(pages, pageBytes)
    }

    public var count: Int { bytes.count }

    /// Zeroes every byte.
    public func wipe() { explicit_bzero(pages, pageBytes) }

    /// The first byte's address (for tests that look the page up in /proc/self/smaps).
    public var baseAddress: UnsafeMutableRawPointer { pages }
}

/// A buffer is filled on one thread and handed on, never shared for concurrent writes.
extension LockedBuffer: @unchecked Sendable {}
