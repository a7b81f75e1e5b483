#if canImport(Glibc)
import Glibc
#endif

/// The paired phones on disk: `$XDG_CONFIG_HOME/eid/ifd/` (default `~/.config/eid/ifd/`), one
/// file `phone-<IFDID>.json` per phone, 0600 in a 0700 directory. eid's own TLS identity
/// (IFDTransport) lives in the same directory under names of its own.
public struct PairedDeviceStore: Sendable {
    public let directory: String

    public init(directory: String) { self.directory = directory }

    /// The store at its place in the user's config directory.
    public static func user(environment: (String) -> String? = { getenv($0).map { String(cString: $0) } })
        throws(PairedDeviceStoreError) -> PairedDeviceStore
    {
        if let config = environment("XDG_CONFIG_HOME"), config.hasPrefix("/") {
            return PairedDeviceStore(directory: config + "/eid/ifd")
        }
        guard let home = environment("HOME"), !home.isEmpty else { throw .noConfigDirectory }
        return PairedDeviceStore(directory: home + "/.config/eid/ifd")
    }

    /// The paired phones, sorted by name, and the files that are not readable as one.
    public func load() -> (devices: [PairedDevice], unreadable: [PairedDeviceStoreError]) {
        var devices: [PairedDevice] = []
        var unreadable: [PairedDeviceStoreError] = []
        for file in phoneFiles() {
            let path = directory + "/" + file
            do {
                devices.append(try PairedDevice(json: try Self.read(path)))
            } catch {
                unreadable.append(.unreadable(path: path, error.description))
            }
        }
        return (devices.sorted { $0.name < $1.name }, unreadable)
    }

    /// Whether any phone is paired (a look at the directory, nothing read): without one, eid
    /// touches nothing of the remote reader.
    public var hasDevices: Bool { !phoneFiles().isEmpty }

    /// Stores `device`, replacing an earlier pairing of the same phone (same IFDID).
    public func save(_ device: PairedDevice) throws(PairedDeviceStoreError) {
        try makeDirectory()
        let path = directory + "/" + Self.fileName(device)
        let temporary = path + ".new"
        let bytes = Array((device.json.text + "\n").utf8)
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { throw .cannotWrite(path: temporary, Self.errnoText()) }
        let written = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        let ok = written == bytes.count && fchmod(fd, 0o600) == 0 && fsync(fd) == 0
        close(fd)
        guard ok, rename(temporary, path) == 0 else {
            let why = Self.errnoText()
            unlink(temporary)
            throw .cannotWrite(path: path, why)
        }
    }

    /// Forgets the phone named `name` (or whose IFDID is `name`); returns it.
    @discardableResult
    public func forget(_ name: String) throws(PairedDeviceStoreError) -> PairedDevice {
        guard let device = load().devices.first(where: { $0.name == name || $0.ifdID == name.lowercased() }) else {
            throw .notPaired(name)
        }
        let path = directory + "/" + Self.fileName(device)
        guard unlink(path) == 0 else { throw .cannotWrite(path: path, Self.errnoText()) }
        return device
    }

    static func fileName(_ device: PairedDevice) -> String { "phone-\(device.ifdID).json" }

    private func phoneFiles() -> [String] {
        guard let dir = opendir(directory) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(cString: raw.bindMemory(to: CChar.self).baseAddress!)
            }
            if name.hasPrefix("phone-") && name.hasSuffix(".json") { names.append(name) }
        }
        return names.sorted()
    }

    /// Makes the directory and the missing ones above it (0700); makes an existing one 0700.
    private func makeDirectory() throws(PairedDeviceStoreError) {
        var path = ""
        for part in directory.split(separator: "/") {
            path += "/" + part
            if mkdir(path, 0o700) != 0 && errno != EEXIST { throw .cannotWrite(path: path, Self.errnoText()) }
        }
        guard chmod(directory, 0o700) == 0 else { throw .cannotWrite(path: directory, Self.errnoText()) }
    }

    static func read(_ path: String) throws(PairedDeviceStoreError) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else { throw .corrupt(errnoText()) }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while bytes.count <= 64 * 1024 {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n >= 0 else { throw .corrupt(errnoText()) }
            if n == 0 { return bytes }
            bytes += buffer[0..<n]
        }
        throw .corrupt("longer than 64 KiB")
    }

    static func errnoText() -> String { String(cString: strerror(errno)) }
}
