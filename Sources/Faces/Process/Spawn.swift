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
}
