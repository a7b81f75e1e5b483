import Foundation

/// The certificates of Tests/Support/tls-test-pki.sh, made once per test run in a fresh directory.
struct TestPKI: Sendable {
    let directory: URL

    /// A directory of this test process's own, removed when the process exits.
    static let path = FileManager.default.temporaryDirectory
        .appendingPathComponent("eid-tlstests-\(getpid())-\(UInt32.random(in: 0...UInt32.max))").path

    static let shared: Result<TestPKI, any Error> = Result {
        let directory = URL(fileURLWithPath: path)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(atPath: TestPKI.path) }
        let process = Process()
        process.executableURL = supportDirectory.appendingPathComponent("tls-test-pki.sh")
        process.arguments = [directory.path]
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw PeerError.failed("tls-test-pki.sh") }
        return TestPKI(directory: directory)
    }

    static func get() throws -> TestPKI { try shared.get() }

    static let supportDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Support")

    func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    /// A certificate's DER, as the server sends it.
    func der(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: directory.appendingPathComponent("\(name).der")))
    }
}
