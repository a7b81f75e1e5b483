import Foundation
import SmartCard
import Testing

/// TR-03124-2 module D (the user dialog) and C2_01, end to end: `eid-testserver serve --attributes
/// 'GivenNames,FamilyName,DateOfBirth?' --transaction-info …` asks for two required rights and one
/// optional one with a transaction; `eid auth --json` with eid-sim through the test pcscd shows them
/// in ACCESS_RIGHTS (the SDK's names, AusweisApp's), takes SET_ACCESS_RIGHTS, and the server's
/// `/result` shows what the card gave; the terminal face (`eid auth --simulator` on a pseudo-terminal)
/// shows them in AusweisApp's words.
enum ConformanceD {
    static let transaction = "Order 4711 (TEST ONLY)"
    static let options = [
        "--attributes", "GivenNames,FamilyName,DateOfBirth?", "--transaction-info", transaction,
    ]
    static let asked = ["GivenNames", "FamilyName", "DateOfBirth"]
}

extension ThroughPCSCD {
    @Suite(.enabled(if: AuthDeselectedRight.serverPresent, "needs the built eid-testserver binary: run `make test`"))
    struct ConformanceDTests {
        typealias Faults = AuthFaultsTests

        static func expected(
            read: [String], notRead: [String], messages: [String], stdout: [String]
        ) -> Faults.Expected {
            var expected = Faults.Expected(
                minor: nil, reason: nil, status: 0, messages: messages, urlPath: "/refresh",
                urlResult: "ResultMajor=ok", serverOK: true, read: read, notRead: notRead)
            expected.stdoutContains = stdout
            return expected
        }

        /// Runs `cases` (name, query, commands, expected) with one server and one card (eid-sim with
        /// `cardArguments`); returns the card's standard error (its `--trace`, when asked for).
        @discardableResult
        static func run(
            _ cases: [(String, String, [String], Faults.Expected)], cardArguments: [String] = []
        ) throws -> String {
            let server = try TestServerProcess(ConformanceD.options)
            defer { server.stop() }
            return try E2E.pool.withReader { reader, port in
                let card = try SimulatedCard(reader: reader, port: port, arguments: cardArguments)
                defer { card.stop() }
                var problems: [String] = []
                for (name, query, commands, expected) in cases {
                    problems += Faults.check(
                        name, url: server.origin + "/tctoken" + query, commands: commands, expected: expected,
                        reader: reader, server: server)
                }
                for problem in problems { Issue.record(Comment(rawValue: problem)) }
                return card.stop().1
            }
        }

        @Test(
            """
            EID_CLIENT_D_18, EID_CLIENT_D_24, EID_CLIENT_D_05: the rights EAC1 asks for come preselected, with \
            the transaction info, under AusweisApp's names
            """
        )
        func askedRightsArePreselected() throws {
            let shown = [
                #""effective":["FamilyName","GivenNames","DateOfBirth"]"#, #""optional":["DateOfBirth"]"#,
                #""required":["FamilyName","GivenNames"]"#, #""transactionInfo":"\#(ConformanceD.transaction)""#,
            ]
            try Self.run([
                (
                    "accepted as shown", "", [Faults.accept, Faults.pin],
                    Self.expected(read: ConformanceD.asked, notRead: [], messages: Faults.succeeded, stdout: shown)
                )
            ])
        }

        @Test(
            """
            EID_CLIENT_D_22, EID_CLIENT_D_20: a required right stays selected when the user deselects all, and a \
            right not asked for cannot be selected
            """
        )
        func requiredRightsStayAndOthersCannotBeSelected() throws {
            let twice = ["AUTH", "ACCESS_RIGHTS", "ACCESS_RIGHTS", "READER", "ENTER_PIN", "AUTH"]
            try Self.run([
                (
                    "every optional right deselected", "",
                    [#"{"cmd":"SET_ACCESS_RIGHTS","chat":[]}"#, Faults.accept, Faults.pin],
                    Self.expected(
                        read: ["GivenNames", "FamilyName"], notRead: ["DateOfBirth"], messages: twice,
                        stdout: [#""effective":["FamilyName","GivenNames"],"#])
                ),
                (
                    "Address asked for by the user", "",
                    [#"{"cmd":"SET_ACCESS_RIGHTS","chat":["Address"]}"#, Faults.accept, Faults.pin],
                    Self.expected(
                        read: ConformanceD.asked, notRead: ["Address"], messages: twice,
                        stdout: [#""error":"#, #""effective":["FamilyName","GivenNames","DateOfBirth"],"#])
                ),
            ])
        }

        /// The CHAT the card got in MSE:Set AT for PACE (eid-sim's `--trace` shows it) holds exactly the
        /// rights shown: an authentication terminal (OID 0.4.0.127.0.7.3.1.2.2) and of its 40 bits
        /// (TR-03110-4, C.4.1: bit 0 the lowest of the last byte) only read DG4 GivenNames (bit 11), DG5
        /// FamilyName (bit 12) and DG8 DateOfBirth (bit 15). DG1 (document type, bit 8), which the
        /// terminal's certificate grants but the server did not ask for and eid did not show, is zero. Then
        /// the server (`transmit_stop`) reads DG1 after the first data group: the card refuses it (6982) and
        /// the server ends ok; had eid set its bit, the card would answer and the server end with an error
        /// (`transmit_not_stopped`). eid ends as in B_07 (the card's refusal stays).
        @Test("EID_CLIENT_C2_01: a right not shown to the user is zero in the CHAT the card gets")
        func aRightNotShownIsZeroInTheCHAT() throws {
            var probed = Faults.Expected(
                minor: "/al/common#unknownError", reason: "Card_Unexpected_Transmit_Status", status: 6,
                messages: Faults.succeeded, urlPath: "/refresh", urlResult: "ResultMajor=error&ResultMinor=clientError",
                serverOK: true, read: ConformanceD.asked, notRead: ["DocumentType"])
            probed.stdoutContains = [#""effective":["FamilyName","GivenNames","DateOfBirth"],"#]
            let trace = try Self.run(
                [("DG1 probed", "?fault=transmit_stop", [Faults.accept, Faults.pin], probed)],
                cardArguments: ["--trace"])
            let chats = trace.split(separator: "\n").compactMap { line in
                line.range(of: " chat=").map { String(line[$0.upperBound...]) }
            }
            let role = "7F4C12" + "060904007F00070301020253" + "05"
            #expect(chats == [role + "00" + "00" + "00" + "98" + "00"], "the CHATs the card got: \(chats)")
            let rights = chats.first.flatMap { [UInt8](hex: String($0.dropFirst(role.count))) } ?? []
            #expect(rights.count == 5 && rights[3] & 0x01 == 0, "DG1's bit is set in \(chats)")
        }

        /// EAC1 without RequiredCHAT and OptionalCHAT (`eac1_no_chats`): eid offers the AT certificate's
        /// rights, none required, every one preselected, and the server reads data it did not name in its
        /// `--attributes` (PlaceOfBirth, Address), which the CHAT eid sent grants.
        @Test("EID_CLIENT_D_19: without CHATs in EAC1 the terminal certificate's rights come preselected")
        func theTerminalsRightsArePreselected() throws {
            var expected = Self.expected(
                read: ConformanceD.asked + ["PlaceOfBirth", "Address"], notRead: [], messages: Faults.succeeded,
                stdout: [
                    #""required":[]"#, #""effective":["FamilyName","BirthName","GivenNames","DoctoralDegree","#,
                    #""optional":["FamilyName","BirthName","GivenNames","DoctoralDegree","#,
                    #""PlaceOfBirth","Address""#,
                ])
            try Self.run([("no CHATs", "?fault=eac1_no_chats", [Faults.accept, Faults.pin], expected)])
        }
    }
}

/// The terminal face: `eid auth --simulator` on a pseudo-terminal against the same server shows the
/// rights in AusweisApp's words and order, required before optional, and the transaction; the
/// optional one deselected with `--deny` is named as not sent, and not read.
@Suite(
    .enabled(
        if: AuthDeselectedRight.serverPresent && FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux"),
        "needs the built eid-testserver binary and tmux: run `make test`"))
struct ConformanceDTerminalTests {
    @Test(
        "EID_CLIENT_D_05, EID_CLIENT_D_24: the terminal names the rights as AusweisApp does and shows the transaction")
    func theTerminalShowsTheRightsAndTheTransaction() throws {
        let server = AuthAgainstTestServerTests()
        try server.withServer(options: ConformanceD.options) { port in
            let terminal = try AuthTerminalTests().session(port, ["--deny", "DateOfBirth"])
            try terminal.waitFor("Proceed? [y/N]")
            let asked = try terminal.screen()
            #expect(
                asked.contains(
                    "The service asks to read:\n  Family name (required)\n  Given name(s) (required)\n"
                        + "  Date of birth (optional)\nTransaction: \(ConformanceD.transaction)\n"
                        + "Not sent (--deny): Date of birth."),
                "\(asked)")
            try terminal.type("y")
            try terminal.waitFor("PIN (6 digits):")
            try terminal.type("123456")
            try terminal.waitFor("TTY=")
            #expect(try terminal.screen().contains("EXIT=0"))
            let read = try server.result(port: port)
            #expect(read.contains(#""FamilyName":"MUSTERMANN""#) && !read.contains("DateOfBirth"), "\(read)")
        }
    }
}
