import Foundation
import SmartCard
import Testing

/// `eid serve` in a terminal (tmux) with no SDK client: a browser activation is answered at the
/// terminal with eid auth's prompts; Ctrl-C there cancels that authentication (the browser is
/// sent on with the cancellation) and the service goes on; Ctrl-C while idle ends it.
@Suite(
    .enabled(
        if: FileManager.default.isExecutableFile(atPath: E2E.binDir.appendingPathComponent("eid-testserver").path)
            && FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux"),
        "needs the built eid-testserver binary and tmux: run `make test`"))
struct ServeTerminalTests {
    /// The browser's request on a thread of its own; its answer once it has come.
    final class Browser: @unchecked Sendable {
        private let answer = Locked<HTTPExchange?>(nil)
        private let done = DispatchSemaphore(value: 0)

        init(_ url: String) {
            Thread.detachNewThread { [self] in
                answer.withLock { $0 = try? HTTPExchange.curl(url) }
                done.signal()
            }
        }

        func wait() -> HTTPExchange? {
            _ = done.wait(timeout: .now() + 60)
            return answer.withLock { $0 }
        }
    }

    @Test func theTerminalAnswersAnActivationAndCtrlCCancelsIt() throws {
        let server = try TestServerProcess()
        defer { server.stop() }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("eid-serve-tty-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let portFile = directory.appendingPathComponent("port")
        let eid = E2E.binDir.appendingPathComponent("eid").path
        let terminal = try TmuxSession(
            "'\(eid)' serve --simulator --timeout 20 --port 0 --port-file '\(portFile.path)'",
            environment: ["PCSCLITE_CSOCK_NAME": "/nonexistent/pcscd.comm"])
        try terminal.waitFor("eid: serving on port")
        let port = try #require(Int((try? String(contentsOf: portFile, encoding: .utf8)) ?? ""))
        let query = "\(server.origin)/tctoken".addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
        let activation = "http://127.0.0.1:\(port)/eID-Client?tcTokenURL=\(query)"

        let cancelled = Browser(activation)
        try terminal.waitFor("Proceed? [y/N]")
        let interrupted = Date()
        try terminal.interrupt()
        let first = try #require(cancelled.wait())
        #expect(first.statuses == [102, 303])
        #expect(first.headers["location"]?.contains("ResultMinor=cancellationByUser") == true)
        // The service goes on, also past the grace period that eid auth gives a workflow to end: a timer
        // whose end must change nothing, so nothing marks it. The wait is the behaviour: until the grace
        // period since the Ctrl-C is over, with 2 s to spare for a loaded machine.
        Thread.sleep(until: interrupted.addingTimeInterval(3 + 2))
        #expect(try HTTPExchange.curl("http://127.0.0.1:\(port)/eID-Client?Status").statuses == [200])

        let confirmed = Browser(activation)
        try terminal.waitFor("Proceed? [y/N]", count: 2)
        try terminal.type("y")
        try terminal.waitFor("PIN (6 digits):", count: 1)
        try terminal.type("123456")
        let second = try #require(confirmed.wait())
        #expect(second.statuses == [102, 303])
        #expect(second.headers["location"]?.contains("ResultMajor=ok") == true)
        #expect(try server.result(session: nil)?.hasPrefix(#"{"ok":true"#) == true)
        #expect(!(try terminal.screen()).contains("123456"), "the PIN is not on the screen")

        try terminal.interrupt()
        try terminal.waitFor("TTY=")
        let end = try terminal.screen()
        #expect(end.contains("EXIT=130"), "\(end.suffix(300))")
        #expect(end.contains("TTY=echo"), "the terminal echoes again: \(end.suffix(300))")
    }
}
