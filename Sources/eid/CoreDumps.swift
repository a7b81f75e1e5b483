#if canImport(Glibc)
import Glibc
#endif

/// Core dumps off for a command that may hold a secret: a crash must not write the PIN to disk,
/// and with the process not dumpable no other program of the same user may attach to it
/// (ptrace) or read its memory through /proc.
enum CoreDumps {
    /// PR_SET_DUMPABLE from <linux/prctl.h>.
    private static let setDumpable: Int32 = 4

    static func disable() {
        var none = rlimit(rlim_cur: 0, rlim_max: 0)
        _ = setrlimit(__rlimit_resource_t(RLIMIT_CORE.rawValue), &none)
        // prctl is declared variadic, which Swift cannot call; glibc implements it as a plain
        // system call wrapper taking five integer words, so it is called through that type.
        typealias Prctl = @convention(c) (Int32, UInt, UInt, UInt, UInt) -> Int32
        // dlsym(RTLD_DEFAULT, ...): RTLD_DEFAULT is the null handle in glibc.
        if let symbol = dlsym(nil, "prctl") {
            _ = unsafeBitCast(symbol, to: Prctl.self)(setDumpable, 0, 0, 0, 0)
        }
    }
}
