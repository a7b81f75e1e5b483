import Foundation
import Glibc

extension Process {
    /// Ends a server the tests started: SIGTERM, SIGKILL if it still runs after `grace` seconds,
    /// then reaped.
    func stop(grace: Double) {
        terminate()
        let end = Date(timeIntervalSinceNow: grace)
        while isRunning && Date() < end { usleep(10_000) }
        if isRunning { Glibc.kill(processIdentifier, SIGKILL) }
        waitUntilExit()
    }
}
