import FoundationEssentials
import LocalService
import Online

#if canImport(Glibc)
import Glibc
#endif

/// The port files an SDK client that started eid serve on another port than 24727 reads, as
/// AusweisApp writes them: `AusweisApp.<pid>.port` (2.x) and `AusweisApp2.<pid>.port` (1.2x) in
/// the temporary directory ($TMPDIR, else /tmp), the port as digits; removed when the service ends.
struct PortFiles {
    let paths: [String]

    static func directory() -> String {
        let tmp = ProcessInfo.processInfo.environment["TMPDIR"] ?? ""
        return tmp.isEmpty ? "/tmp" : tmp
    }

    /// Writes them for `port` (none for the default port).
    static func write(port: Int) throws(LocalServiceError) -> PortFiles {
        guard port != ActivationURL.localPort else { return PortFiles(paths: []) }
        let pid = getpid()
        let paths = ["AusweisApp", "AusweisApp2"].map { "\(directory())/\($0).\(pid).port" }
        for path in paths { try Serve.write(port: port, to: path) }
        return PortFiles(paths: paths)
    }

    func remove() {
        for path in paths { unlink(path) }
    }
}
