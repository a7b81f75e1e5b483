import ArgumentParser
import Workflows

extension FailureReason {
    /// Says the reason's sentence on standard error (unless `quiet`) and returns its exit
    /// status for the command to throw.
    func exit(quiet: Bool = false) -> ExitCode {
        if !quiet { Console.shared.err("eid: \(sentence)") }
        return ExitCode(exitStatus)
    }
}
