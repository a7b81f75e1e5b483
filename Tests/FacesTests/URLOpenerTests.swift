import Faces
import Foundation
import TestPrograms
import Testing

/// `--open`'s opener as a process: a fake `xdg-open` (a script in a temporary directory) records
/// the arguments it was started with.
@Suite(.serialized) struct URLOpenerTests {
    /// A directory holding an executable `xdg-open` that writes its argument count and arguments
    /// (one per line) to `args`, says something on both streams, and ends with `status`.
    func fakeOpener(status: Int32 = 0) throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("eid-opener-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let script = dir.appendingPathComponent("xdg-open")
        let text = """
            #!/bin/sh
            { echo "$#"; for a in "$@"; do printf '%s\\n' "$a"; done; } > "\(dir.path)/args"
            echo "opener noise on stdout"
            echo "opener noise on stderr" >&2
            exit \(status)

            """
        try ExecutableFile.write(text, to: script.path)
        return dir
    }

    func recordedArguments(_ dir: URL) throws -> [String] {
        let deadline = Date(timeIntervalSinceNow: 30)
        let file = dir.appendingPathComponent("args")
        while !FileManager.default.fileExists(atPath: file.path) && Date() < deadline { usleep(20_000) }
        return try String(contentsOf: file, encoding: .utf8).split(separator: "\n").map(String.init)
    }

    @Test func theAddressIsOneArgumentAndNoShellReadsIt() throws {
        let dir = try fakeOpener()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = "https://service.example/refresh?a=$(touch%20x)&b=`id`;c=1|d&ResultMajor=ok"
        let opener = URLOpener(program: dir.appendingPathComponent("xdg-open").path)
        try opener.open(url, quiet: true)
        #expect(try recordedArguments(dir) == ["1", url])
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("x").path))
    }

    @Test func onlyHTTPSAddressesAreHandedOn() throws {
        let dir = try fakeOpener()
        defer { try? FileManager.default.removeItem(at: dir) }
        let opener = URLOpener(program: dir.appendingPathComponent("xdg-open").path)
        for url in [
            "http://service.example/refresh", "file:///etc/passwd", "https://", "--help",
            "https://service.example/a b", "https://service.example/\n--x", "javascript:alert(1)",
        ] {
            #expect(throws: URLOpener.Failure.notHTTPS, "\(url)") { try opener.open(url, quiet: true) }
        }
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("args").path))
    }

    @Test func aMissingOpenerIsSaidClearly() {
        let opener = URLOpener(program: "eid-test-no-such-opener")
        let failure = #expect(throws: URLOpener.Failure.self) {
            try opener.open("https://service.example/refresh", quiet: true)
        }
        #expect(failure == .openerMissing(program: "eid-test-no-such-opener"))
        #expect(failure?.description.contains("not installed") == true)
    }

    @Test func anOpenerThatFailsAtOnceIsReported() throws {
        let dir = try fakeOpener(status: 3)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("xdg-open").path
        #expect(throws: URLOpener.Failure.openerFailed(program: path, status: 3)) {
            try URLOpener(program: path).open("https://service.example/r", quiet: true)
        }
    }

    /// The opener gets standard input, output and error and nothing else of eid's: a descriptor eid
    /// holds open without close-on-exec (here a pipe, as a connection to pcscd or a server would be)
    /// does not reach the opener or the browser it starts.
    @Test func theOpenerInheritsOnlyItsStandardStreams() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("eid-opener-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let program = dir.appendingPathComponent("xdg-open").path
        try ExecutableFile.write(
            DescriptorLister.script(writingTo: dir.appendingPathComponent("fds").path), to: program)
        var held: [Int32] = [0, 0]
        try #require(pipe(&held) == 0)
        defer { for fd in held { close(fd) } }
        #expect(fcntl(held[1], F_GETFD) & FD_CLOEXEC == 0, "the held descriptor is inheritable")

        try URLOpener(program: program).open("https://service.example/refresh", quiet: true)
        let open = try DescriptorLister.read(dir.appendingPathComponent("fds"))
        #expect(open.keys.sorted() == [0, 1, 2], "\(open)")
        #expect(open[0] == "/dev/null" && open[1] == "/dev/null" && open[2] == "/dev/null", "\(open)")
    }
}
