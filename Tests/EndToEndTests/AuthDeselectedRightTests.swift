import Foundation
import Testing

/// An optional right the user deselects is not read: `eid-testserver serve --attributes
/// 'GivenNames,FamilyName,DateOfBirth?'` asks for DateOfBirth as optional; deselected (JSON
/// SET_ACCESS_RIGHTS without it, or the terminal's `--deny DateOfBirth`), the authentication
/// succeeds and the server's `/result` has the required data but no DateOfBirth; left selected,
/// the server reads it (so the absence is the deselection's doing).
enum AuthDeselectedRight {
    static let attributes = ["--attributes", "GivenNames,FamilyName,DateOfBirth?"]
    static var serverPresent: Bool {
        FileManager.default.isExecutableFile(atPath: E2E.binDir.appendingPathComponent("eid-testserver").path)
    }
}

extension ThroughPCSCD {
    @Suite(.enabled(if: AuthDeselectedRight.serverPresent, "needs the built eid-testserver binary: run `make test`"))
    struct AuthDeselectedRightTests {
        typealias Faults = AuthFaultsTests

        /// `eid auth --json --test-pki --reader R` with eid-sim in the test pcscd.
        @Test("EID_CLIENT_B_04: SET_ACCESS_RIGHTS without the optional right keeps it unread")
        func setAccessRightsWithoutTheOptionalRightKeepsItUnread() throws {
            let server = try TestServerProcess(AuthDeselectedRight.attributes)
            defer { server.stop() }
            func expected(read: [String], notRead: [String], messages: [String]) -> Faults.Expected {
                Faults.Expected(
                    minor: nil, reason: nil, status: 0, messages: messages, urlPath: "/refresh",
                    urlResult: "ResultMajor=ok", serverOK: true, read: read, notRead: notRead)
            }
            try E2E.pool.withReader { reader, port in
                let card = try SimulatedCard(reader: reader, port: port)
                defer { card.stop() }
                var problems = Faults.check(
                    "DateOfBirth deselected", url: server.origin + "/tctoken",
                    commands: [#"{"cmd":"SET_ACCESS_RIGHTS","chat":[]}"#, Faults.accept, Faults.pin],
                    expected: expected(
                        read: ["GivenNames", "FamilyName"], notRead: ["DateOfBirth"],
                        messages: ["AUTH", "ACCESS_RIGHTS", "ACCESS_RIGHTS", "READER", "ENTER_PIN", "AUTH"]),
                    reader: reader, server: server)
                problems += Faults.check(
                    "DateOfBirth left selected", url: server.origin + "/tctoken",
                    commands: [Faults.accept, Faults.pin],
                    expected: expected(
                        read: ["GivenNames", "FamilyName", "DateOfBirth"], notRead: [], messages: Faults.succeeded),
                    reader: reader, server: server)
                for problem in problems { Issue.record(Comment(rawValue: problem)) }
            }
        }

        /// TR-03124-2 C2_02: EAC1InputType without RequiredCHAT (`--attributes` with every right optional, DG1
        /// among them) and the user deselects every right. The server gets the zero CHAT in EAC1OutputType: it
        /// reads what that CHAT grants, and reads nothing. The card gets it too: with `transmit_stop` the server
        /// reads DG1 (not granted in its CHAT) and takes the card's refusal as planned, but ends with an error if
        /// the card answers, as a card given the unrestricted CHAT would. The control: left selected, every data
        /// group is read, DG1 too.
        @Test(
            """
            EID_CLIENT_C2_02, EID_CLIENT_D_21: without RequiredCHAT, every right deselected: card and server get \
            the zero CHAT
            """
        )
        func withoutRequiredCHATTheDeselectedCHATGoesToCardAndServer() throws {
            let asked = ["DocumentType", "GivenNames", "FamilyName", "DateOfBirth"]
            let server = try TestServerProcess(["--attributes", asked.map { $0 + "?" }.joined(separator: ",")])
            defer { server.stop() }
            let deselect = #"{"cmd":"SET_ACCESS_RIGHTS","chat":[]}"#
            let deselected = ["AUTH", "ACCESS_RIGHTS", "ACCESS_RIGHTS", "READER", "ENTER_PIN", "AUTH"]
            // eid saw no required right, and after the deselection no effective one.
            let zero = [#""required":[]"#, #""chat":{"effective":[],"#]
            try E2E.pool.withReader { reader, port in
                let card = try SimulatedCard(reader: reader, port: port)
                defer { card.stop() }
                var plain = Faults.Expected(
                    minor: nil, reason: nil, status: 0, messages: deselected, urlPath: "/refresh",
                    urlResult: "ResultMajor=ok", serverOK: true, read: [], notRead: asked)
                plain.stdoutContains = zero
                plain.resultContains = [#""read":{}"#]
                var problems = Faults.check(
                    "every right deselected", url: server.origin + "/tctoken",
                    commands: [deselect, Faults.accept, Faults.pin],
                    expected: plain, reader: reader, server: server)
                // The card's refusal of DG1 fails the authentication for the client (as in B_07); the server,
                // which planned it, ends ok.
                var probed = Faults.Expected(
                    minor: "/al/common#unknownError", reason: "Card_Unexpected_Transmit_Status", status: 6,
                    messages: deselected, urlPath: "/refresh",
                    urlResult: "ResultMajor=error&ResultMinor=clientError", serverOK: true, read: [], notRead: asked)
                probed.stdoutContains = zero
                problems += Faults.check(
                    "every right deselected, the card asked for DG1",
                    url: server.origin + "/tctoken?fault=transmit_stop",
                    commands: [deselect, Faults.accept, Faults.pin], expected: probed, reader: reader, server: server)
                problems += Faults.check(
                    "every right left selected", url: server.origin + "/tctoken",
                    commands: [Faults.accept, Faults.pin],
                    expected: Faults.Expected(
                        minor: nil, reason: nil, status: 0, messages: Faults.succeeded, urlPath: "/refresh",
                        urlResult: "ResultMajor=ok", serverOK: true, read: asked, notRead: []),
                    reader: reader, server: server)
                for problem in problems { Issue.record(Comment(rawValue: problem)) }
            }
        }
    }
}

/// The terminal face: `eid auth --simulator --yes --deny DateOfBirth` on a pseudo-terminal.
@Suite(
    .enabled(
        if: AuthDeselectedRight.serverPresent && FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux"),
        "needs the built eid-testserver binary and tmux: run `make test`"))
struct AuthDenyTerminalTests {
    @Test("EID_CLIENT_D_23: --deny keeps the optional right unread")
    func denyKeepsTheOptionalRightUnread() throws {
        let server = AuthAgainstTestServerTests()
        try server.withServer(options: AuthDeselectedRight.attributes) { port in
            let terminal = try AuthTerminalTests().session(port, ["--yes", "--deny", "DateOfBirth"])
            try terminal.waitFor("PIN (6 digits):")
            try terminal.type("123456")
            try terminal.waitFor("TTY=")
            let screen = try terminal.screen()
            #expect(screen.contains("EXIT=0"), "\(screen)")
            let read = try server.result(port: port)
            #expect(read.hasPrefix(#"{"ok":true"#), "\(read)")
            #expect(read.contains(#""GivenNames":"ERIKA""#), "\(read)")
            #expect(!read.contains(#""DateOfBirth""#), "\(read)")
        }
    }
}
