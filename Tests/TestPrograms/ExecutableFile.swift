#if canImport(Glibc)
import Glibc
#endif

/// A program a test writes and then runs (a fake `xdg-open`, a scripted pinentry), written so that
/// no other process can hold it open for writing when it is started.
///
/// Tests run in parallel in one process, and other tests start children all the time. A child
/// forked while this process has the file open for writing inherits that descriptor; as long as
/// any process holds it, the kernel refuses to run the file (execve fails with ETXTBSY, "Text file
/// busy"). So the file is written under a temporary name through a close-on-exec descriptor (a
/// child that inherits it loses it when it runs its own program, so it never outlives that
/// child's fork-to-exec step), closed, made executable, and only then renamed to its name: a
/// program under `path` is complete and no descriptor opened for it is left to inherit.
public enum ExecutableFile {
    /// Why the file could not be written (errno each time); nothing is left under the temporary name.
    public enum Failure: Error, Equatable, CustomStringConvertible {
        case open(path: String, errno: Int32)
        case write(path: String, errno: Int32)
        case close(path: String, errno: Int32)
        case chmod(path: String, errno: Int32)
        case rename(path: String, errno: Int32)

        public var description: String {
            switch self {
            case .open(let path, let code): return "cannot create \(path): \(String(cString: strerror(code)))"
            case .write(let path, let code): return "cannot write \(path): \(String(cString: strerror(code)))"
            case .close(let path, let code): return "cannot close \(path): \(String(cString: strerror(code)))"
            case .chmod(let path, let code): return "cannot make \(path) executable: \(String(cString: strerror(code)))"
            case .rename(let path, let code): return "cannot rename to \(path): \(String(cString: strerror(code)))"
            }
        }
    }

    /// Writes `text` to `path` (replacing what is there) with mode 0755. The temporary name is in
    /// the same directory (so that rename stays within one file system).
    public static func write(_ text: String, to path: String) throws(Failure) {
        let temporary = path + ".partial-\(getpid())-\(UInt64.random(in: 0...UInt64.max))"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw .open(path: temporary, errno: errno) }
        var written = true
        var failure: Int32 = 0
        let bytes = Array(text.utf8)
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let count = Glibc.write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if count < 0 {
                    if errno == EINTR { continue }
                    written = false
                    failure = errno
                    return
                }
                offset += count
            }
        }
        let closed = close(fd) == 0
        let closeFailure = errno
        guard written else {
            unlink(temporary)
            throw .write(path: temporary, errno: failure)
        }
        guard closed else {
            unlink(temporary)
            throw .close(path: temporary, errno: closeFailure)
        }
        guard chmod(temporary, 0o755) == 0 else {
            let code = errno
            unlink(temporary)
            throw .chmod(path: temporary, errno: code)
        }
        guard rename(temporary, path) == 0 else {
            let code = errno
            unlink(temporary)
            throw .rename(path: path, errno: code)
        }
    }
}
