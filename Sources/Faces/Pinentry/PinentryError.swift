#if canImport(Glibc)
import Glibc
#endif

/// Why a pinentry program gave no answer. No case carries what the person typed.
public enum PinentryError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The program is not installed (not on PATH).
    case programMissing(program: String)
    /// The program could not be started (errno).
    case startFailed(program: String, errno: Int32)
    /// The program ended (or closed its output) before it answered.
    case programEnded(program: String)
    /// The program did not answer a command within the time allowed.
    case noAnswer(program: String, seconds: Double)
    /// A line that is not an Assuan response (what was wrong with it, never its text).
    case malformedResponse(String)
    /// The program refused a command (an `ERR` other than cancel, or an INQUIRE eid cannot answer).
    case refused(command: String, code: UInt32)
    /// Writing to the program failed (errno).
    case writeFailed(errno: Int32)
    /// A stop signal arrived while the program was asking.
    case interrupted

    public var description: String {
        switch self {
        case .programMissing(let program):
            return "the pinentry program \(program) is not installed (Debian: apt install pinentry-gnome3, "
                + "pinentry-qt or pinentry-curses), or give another with --pinentry"
        case .startFailed(let program, let errno):
            return "the pinentry program \(program) could not be started (\(String(cString: strerror(errno))))"
        case .programEnded(let program):
            return "the pinentry program \(program) ended without an answer (for a terminal pinentry, is GPG_TTY set?)"
        case .noAnswer(let program, let seconds):
            return "the pinentry program \(program) did not answer within \(Int(seconds)) s"
        case .malformedResponse(let what):
            return "the pinentry program answered something that is not Assuan (\(what))"
        case .refused(let command, let code):
            return "the pinentry program refused \(command) (error \(code))"
        case .writeFailed(let errno):
            return "writing to the pinentry program failed (\(String(cString: strerror(errno))))"
        case .interrupted:
            return "interrupted while the pinentry program was asking"
        }
    }
}
