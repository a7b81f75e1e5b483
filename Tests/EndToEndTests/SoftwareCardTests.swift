import Foundation
import Testing

/// eid-sim as a program: its faults are clear and it never needs a person to clean up.
@Suite(
    .enabled(
        if: FileManager.default.isExecutableFile(atPath: E2E.binDir.appendingPathComponent("eid-sim").path),
        "needs the built eid-sim binary: run `make test`"))
struct SoftwareCardTests {
    @Test func brokenProfileNamesTheFileAndTheField() throws {
        let dir = FileManager.default.temporaryDirectory
        let cases: [(String, String)] = [
            (#"{"pinRetries": 7}"#, #"field "pinRetries""#),
            (#"{"pin": 123456}"#, #""pin""#),
            (#"{"cardAccess": "zz"}"#, #""cardAccess""#),
            (#"{"colour": "blue"}"#, #""colour""#),
            ("not json", "not valid JSON"),
        ]
        for (i, (content, field)) in cases.enumerated() {
            let file = dir.appendingPathComponent("profile-\(i).json")
            try Data(content.utf8).write(to: file)
            let result = try runTool("eid-sim", ["--profile", file.path, "--vpcd", "127.0.0.1:1"], timeout: 30)
            #expect(result.status != 0, "\(content)")
            #expect(result.stderr.contains(file.lastPathComponent), "\(result.stderr)")
            #expect(result.stderr.contains(field), "\(result.stderr)")
        }
        let missing = try runTool("eid-sim", ["--profile", "/nonexistent/card.json"], timeout: 30)
        #expect(missing.status != 0)
        #expect(missing.stderr.contains("/nonexistent/card.json"))
    }

    @Test func badTrustAnchorsDatesAndDataGroupsAreRefusedClearly() throws {
        let dir = FileManager.default.temporaryDirectory
        let notACertificate = dir.appendingPathComponent("not-a-cvca-\(getpid()).cvcert")
        try Data([0x7F, 0x21, 0x00]).write(to: notACertificate)
        let profile = dir.appendingPathComponent("dg-\(getpid()).json")
        try Data(#"{"dataGroups": {"DG3": "30.06.2034"}}"#.utf8).write(to: profile)
        // Options are usage errors (64); a broken profile file fails like the other profile faults.
        let cases: [([String], Int32, String)] = [
            (["--cvca", "/nonexistent/cvca.cvcert"], 64, "--cvca /nonexistent/cvca.cvcert: cannot read the file"),
            (["--cvca", notACertificate.path], 64, "not a CV certificate (mandatory object 7F4E is missing)"),
            (["--date", "2026-02-30"], 64, "--date must be a date YYYY-MM-DD"),
            (["--profile", profile.path], 1, #"field "dataGroups.DG3": must be a date YYYYMMDD"#),
        ]
        for (arguments, status, text) in cases {
            let result = try runTool("eid-sim", arguments + ["--vpcd", "127.0.0.1:1"], timeout: 30)
            #expect(result.status == status, "\(arguments)")
            #expect(result.stderr.contains(text), "\(result.stderr)")
        }
    }

    @Test func refusedConnectionIsRetriedWithBackoffAndSIGTERMEndsIt() throws {
        let process = Process()
        process.executableURL = E2E.binDir.appendingPathComponent("eid-sim")
        // Port 1 on loopback: nothing listens there.
        process.arguments = ["--vpcd", "127.0.0.1:1"]
        let err = Pipe()
        process.standardError = err
        process.standardOutput = FileHandle.nullDevice
        let errors = GrowingOutput(err)
        try process.run()
        // Running on after two refusals (it said so): then SIGTERM.
        let retried = eventually {
            errors.text().split(separator: "\n").filter { $0.contains("retrying in") }.count >= 2 || !process.isRunning
        }
        #expect(retried && process.isRunning, "\(errors.text())")
        process.terminate()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let lines = errors.text().split(separator: "\n")
        let retries = lines.filter { $0.contains("refused") && $0.contains("retrying in") }
        #expect(retries.count >= 2, "\(lines)")
        // The waits grow: 0.2 s, 0.4 s, 0.8 s ...
        #expect(retries.first?.contains("0.2 s") == true, "\(lines)")
        #expect(retries.dropFirst().first?.contains("0.4 s") == true, "\(lines)")
    }
}
