import SmartCard

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The file of eid's identity for phones, through POSIX calls: read only when it and its directory are the
/// user's alone (no group or other bits, owned by the user, not a symbolic link); created with mode 0600 under
/// a temporary name, synced, and linked into place (link(2) fails when the name exists, so a file is never
/// replaced), in a directory made with mode 0700.
struct IFDIdentityFile {
    let directory: String
    let path: String
    /// Far larger than a PEM key and certificate (about 4 KiB).
    static let maximumSize = 64 * 1024

    init(directory: String, name: String) {
        self.directory = directory
        path = directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }

    /// The file's bytes, or nil when there is none (the directory is checked, not created).
    func contents() throws(IFDTransportError) -> [UInt8]? {
        guard try checkDirectory(create: false) else { return nil }
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else {
            let error = errno
            if error == ENOENT { return nil }
            throw .identityUnreadable(path: path, reason: Self.text(error))
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw .identityUnreadable(path: path, reason: Self.text(errno)) }
        guard status.st_mode & S_IFMT == S_IFREG else {
            throw .identityUnreadable(path: path, reason: "not a regular file")
        }
        guard status.st_uid == getuid(), status.st_mode & 0o077 == 0 else {
            throw .identityPermissions(path: path, mode: UInt32(status.st_mode))
        }
        guard Int(status.st_size) <= Self.maximumSize else {
            throw .identityCorrupt(path: path, reason: "larger than \(Self.maximumSize) bytes")
        }
        var bytes = [UInt8](repeating: 0, count: Self.maximumSize)
        var count = 0
        while count < bytes.count {
            let n = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress! + count, $0.count - count) }
            if n < 0 && errno == EINTR { continue }
            guard n >= 0 else {
                Secret.zero(&bytes)
                throw .identityUnreadable(path: path, reason: Self.text(errno))
            }
            if n == 0 { break }
            count += n
        }
        let contents = Array(bytes[..<count])
        Secret.zero(&bytes)
        return contents
    }

    /// Writes `contents` as the file unless one exists: true when written, false when another was there first.
    func create(contents: [UInt8]) throws(IFDTransportError) -> Bool {
        _ = try checkDirectory(create: true)
        let temporary = "\(path).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw .identityNotWritable(path: path, reason: Self.text(errno)) }
        defer { unlink(temporary) }
        var written = 0
        var failure: Int32 = 0
        while written < contents.count {
            let n = contents.withUnsafeBytes { write(descriptor, $0.baseAddress! + written, $0.count - written) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else {
                failure = errno
                break
            }
            written += n
        }
        if failure == 0 && fsync(descriptor) != 0 { failure = errno }
        close(descriptor)
        guard failure == 0 else { throw .identityNotWritable(path: path, reason: Self.text(failure)) }
        guard link(temporary, path) == 0 else {
            let error = errno
            if error == EEXIST { return false }
            throw .identityNotWritable(path: path, reason: Self.text(error))
        }
        let directoryDescriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if directoryDescriptor >= 0 {
            fsync(directoryDescriptor)
            close(directoryDescriptor)
        }
        return true
    }

    /// Whether the directory exists (made with its missing parents, mode 0700, when `create`); throws when it is
    /// no directory or others may use it.
    private func checkDirectory(create: Bool) throws(IFDTransportError) -> Bool {
        var status = stat()
        if lstat(directory, &status) != 0 {
            guard errno == ENOENT else { throw .identityUnreadable(path: directory, reason: Self.text(errno)) }
            guard create else { return false }
            try makeDirectories()
            guard lstat(directory, &status) == 0 else {
                throw .identityNotWritable(path: directory, reason: Self.text(errno))
            }
        }
        guard status.st_mode & S_IFMT == S_IFDIR else {
            throw .identityUnreadable(path: directory, reason: "not a directory")
        }
        guard status.st_uid == getuid(), status.st_mode & 0o077 == 0 else {
            throw .identityPermissions(path: directory, mode: UInt32(status.st_mode))
        }
        return true
    }

    /// mkdir -p with mode 0700 for each directory it makes.
    private func makeDirectories() throws(IFDTransportError) {
        var prefix = directory.hasPrefix("/") ? "" : "."
        for component in directory.split(separator: "/") {
            prefix += "/" + component
            if mkdir(prefix, 0o700) != 0 && errno != EEXIST {
                throw .identityNotWritable(path: prefix, reason: Self.text(errno))
            }
        }
    }

    private static func text(_ error: Int32) -> String { String(cString: strerror(error)) }
}
