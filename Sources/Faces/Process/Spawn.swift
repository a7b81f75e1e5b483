#if canImport(Glibc)
import Glibc
#endif

/// Starting a helper program (xdg-open, a pinentry): `posix_spawnp` with `program` and
/// `arguments` as argv (never a shell), retried briefly on ETXTBSY (the program was just written
/// and another thread's fork still holds it open). Returns posix_spawnp's status and the pid.
enum Spawn {
    static func start(
        _ program: String, _ arguments: [String], actions: inout posix_spawn_file_actions_t,
        attributes: inout posix_spawnattr_t
    ) -> (status: Int32, pid: pid_t) {
        var pid: pid_t = 0
        var argv: [UnsafeMutablePointer<CChar>?] = ([program] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var status = posix_spawnp(&pid, program, &actions, &attributes, &argv, environ)
        var retries = 0
        while status == ETXTBSY && retries < 10 {
            usleep(50_000)
            retries += 1
            status = posix_spawnp(&pid, program, &actions, &attributes, &argv, environ)
        }
        return (status, pid)
    }

    /// Adds a close action for every descriptor from 3 up that eid has open now (listed in
    /// /proc/self/fd; glibc's posix_spawn ignores one that has been closed since): eid's
    /// connections (to pcscd, to the eID server) are none of the program's business. Added
    /// after the dup2 actions, so those are made first.
    static func closeOthers(_ actions: inout posix_spawn_file_actions_t) {
        guard let directory = opendir("/proc/self/fd") else { return }
        defer { closedir(directory) }
        let own = dirfd(directory)
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard let fd = Int32(name), fd >= 3, fd != own else { continue }
            posix_spawn_file_actions_addclose(&actions, fd)
        }
    }
}
