import Foundation

/// The one bounded wait of the end-to-end tests: looks at `condition` every 20 ms until it holds or
/// `timeout` seconds have passed; whether it held. A test waits for an event (a line of output, a
/// file, a state) this way, never for a fixed time.
func eventually(timeout: Double = 30, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = Date(timeIntervalSinceNow: timeout)
    while true {
        if try condition() { return true }
        if Date() >= deadline { return false }
        usleep(20_000)
    }
}
