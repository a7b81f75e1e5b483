import Foundation
import Testing

/// The `eac` module that Tests/Support/vicc/run-vicc.py gives vsmartcard's nPA emulator (eac.py,
/// a ctypes adapter over Debian's libeac): the values the emulator computes with it must be the
/// ones of the specification, or the end-to-end tests against the emulator fail for some keys.
@Suite struct ViccEACAdapterTests {
    static let adapterDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Support/vicc")

    /// Comp(PK) is the x-coordinate at field length (TR-03110-3 A.2.2.3, TR-03111 FE2OS). nPA.py
    /// takes ID_PICC from it for Terminal Authentication; libeac's own Comp drops leading zero
    /// bytes, so with a card key like this one (scalar 0x0358 on brainpoolP256r1, x = 00 99 1A …)
    /// the emulator refused the terminal's correct signature, for one PACE key in 256.
    @Test func compKeepsTheLeadingZeroByteOfTheXCoordinate() throws {
        let x = "00991ae878a54a2a16850e57e67fa7a3263c85a234ef0119814edf8ed311dccc"
        let point = "04" + x + "6ca8f5aef5a11b583c0a2695743573d9b21bb6f4cb3c844b05041758e9c3550a"
        let script = """
            import ctypes, sys
            import eac
            eac.EAC_init()
            ctx = eac.EAC_CTX_new()
            eac._crypto.OBJ_txt2nid.restype = ctypes.c_int
            eac._crypto.OBJ_txt2nid.argtypes = [ctypes.c_char_p]
            nid = eac._crypto.OBJ_txt2nid(b"0.4.0.127.0.7.2.2.3.2.2")  # id-CA-ECDH-AES-CBC-CMAC-128
            eac._lib.EAC_CTX_init_ca.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_int]
            assert eac._lib.EAC_CTX_init_ca(ctx, nid, 13) == 1  # brainpoolP256r1
            print(eac.EAC_Comp(ctx, eac.EAC_ID_CA, bytes.fromhex(sys.argv[1])).hex())
            eac.EAC_CTX_clear_free(ctx)
            """
        let run = try Self.python(["-c", script, point])
        #expect(run.status == 0, "\(run.output)")
        #expect(run.output.split(separator: "\n").last.map(String.init) == x, "\(run.output)")
    }

    /// Runs /usr/bin/python3 with the adapter's directory first on its path, 20 s limit.
    static func python(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let tool = "/usr/bin/python3"
        guard FileManager.default.isExecutableFile(atPath: tool) else { throw PeerToolError.missing(tool) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        process.environment = ["PYTHONPATH": adapterDirectory.path, "PATH": "/usr/bin:/bin"]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        let deadline = Date().addingTimeInterval(20)
        while process.isRunning {
            if Date() > deadline {
                process.terminate()
                throw PeerToolError.timedOut(tool)
            }
            usleep(10_000)
        }
        // Foundation's Process is freed only once waitUntilExit() has seen the exit: polling
        // isRunning alone leaves it in a cycle (LeakSanitizer, `make sanitize`).
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self))
    }
}
