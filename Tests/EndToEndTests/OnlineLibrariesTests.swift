import Foundation
import Testing

/// Issue 19: a command that does not go online loads no online library. libcurl (with libssl and
/// the dependency tree Debian's libcurl brings) and libxml2 (with ICU) are loaded on first use
/// (Sources/CCurl, Sources/CLibXML2), so the built executables do not name them, `eid change-pin`
/// waiting at ENTER_PIN has none of them mapped, and `eid auth` without libcurl says what to install.
@Suite struct OnlineLibrariesTests {
    /// File name prefixes of the online libraries and what only they bring.
    static let online = ["libcurl", "libxml2", "libssl", "libicu", "libgnutls", "libnghttp2", "libldap", "libkrb5"]

    static let readelf = "/usr/bin/readelf"

    /// The shared libraries `tool` names in its dynamic section (DT_NEEDED).
    func needed(_ tool: String) throws -> [String] {
        let shown = try runProgram(Self.readelf, ["-d", E2E.binDir.appendingPathComponent(tool).path])
        #expect(shown.status == 0, "\(shown.stderr)")
        return shown.stdoutLines.filter { $0.contains("(NEEDED)") }.compactMap { line in
            guard let open = line.firstIndex(of: "["), let close = line.lastIndex(of: "]") else { return nil }
            return String(line[line.index(after: open)..<close])
        }
    }

    func isOnline(_ path: String) -> Bool {
        let name = (path as NSString).lastPathComponent
        return Self.online.contains { name.hasPrefix($0) }
    }

    @Test(
        .enabled(if: FileManager.default.isExecutableFile(atPath: readelf), "needs readelf (binutils)"),
        arguments: ["eid", "eid-sim"])
    func executableNamesNoOnlineLibrary(tool: String) throws {
        let libraries = try needed(tool)
        #expect(libraries.contains { $0.hasPrefix("libc.so") }, "readelf -d \(tool): \(libraries)")
        // eid-sim --ifd is a TLS server (the phone as card reader, on eid-testserver's OpenSSL server code):
        // the test tool links libssl (and libcrypto with it); nothing else online. eid links neither: libcrypto
        // too is loaded on first use (Sources/COpenSSL).
        let allowed = tool == "eid-sim" ? ["libssl"] : []
        let online = libraries.filter(isOnline).filter { name in !allowed.contains { name.hasPrefix($0) } }
        #expect(online.isEmpty, "\(tool) needs \(libraries)")
        if tool == "eid" { #expect(!libraries.contains { $0.hasPrefix("libcrypto") }, "\(tool) needs \(libraries)") }
    }

    /// What `eid change-pin --simulator` has mapped while it waits for the PIN: libcrypto (the software
    /// card has computed its keys), none of the online libraries.
    @Test func changePINWaitingForThePINMapsNoOnlineLibrary() throws {
        let run = try InteractiveRun(["change-pin", "--json", "--simulator"])
        try run.expect("ENTER_PIN")
        // Read to its end (procfs files report no size, which String(contentsOfFile:) relies on).
        let maps = try runProgram("/bin/cat", ["/proc/\(run.process.processIdentifier)/maps"]).stdout
        let files = Set(maps.split(separator: "\n").compactMap { $0.split(separator: " ").last.map(String.init) })
        run.send(#"{"cmd":"CANCEL"}"#)
        _ = run.finish()
        #expect(files.contains { ($0 as NSString).lastPathComponent.hasPrefix("libcrypto") }, "\(files.sorted())")
        #expect(files.filter(isOnline).isEmpty, "\(files.sorted())")
    }

    /// Whether a library can be hidden: root and unshare(1) for a private mount namespace.
    static let canHide = getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare")

    /// Runs `eid arguments` where the library `file` (libcurl.so.4, libxml2.so.2) is /dev/null: a
    /// private mount namespace binds /dev/null over it, so dlopen fails as if it were not installed.
    static func runEIDWithout(_ file: String, _ arguments: [String], environment: [String: String] = [:]) throws
        -> RunResult
    {
        let library = try #require(
            ["/lib/x86_64-linux-gnu/", "/usr/lib/x86_64-linux-gnu/", "/usr/lib64/"].map { $0 + file }
                .first { FileManager.default.fileExists(atPath: $0) }, "\(file) is not where Debian puts it")
        return try runProgram(
            "/usr/bin/unshare",
            [
                "--mount", "--propagation", "private", "sh", "-c",
                #"lib=$1; shift; mount --bind /dev/null "$lib" && exec "$@""#,
                "sh", library, E2E.binDir.appendingPathComponent("eid").path,
            ] + arguments, environment: environment, timeout: 60)
    }

    /// Without libcrypto, `eid --version` and `eid readers` run (neither computes anything), and a command
    /// whose software card needs it says what to install, without a crash.
    @Test(.enabled(if: canHide, "needs root and unshare(1) for a private mount namespace"))
    func withoutLibcryptoOnlyWhatComputesSaysWhatToInstall() throws {
        let version = try Self.runEIDWithout("libcrypto.so.3", ["--version"])
        #expect(version.status == 0, "\(version.stderr)")
        let readers = try Self.runEIDWithout("libcrypto.so.3", ["readers", "--json"])
        #expect(messageNames(readers.stdoutLines) == ["READER_LIST"], "\(readers.stdout)\n\(readers.stderr)")
        let simulator = try Self.runEIDWithout("libcrypto.so.3", ["change-pin", "--json", "--simulator"])
        #expect(simulator.status == 64, "\(simulator.stdout)\n\(simulator.stderr)")
        #expect(simulator.stderr.contains("apt install libssl3"), "\(simulator.stderr)")
        #expect(!simulator.stderr.contains("crashed"), "\(simulator.stderr)")
    }

    /// Without libcurl, `eid auth` ends with an AUTH result whose message says to install libcurl4, and no
    /// card was asked for.
    @Test(.enabled(if: canHide, "needs root and unshare(1) for a private mount namespace"))
    func authWithoutLibcurlSaysWhatToInstall() throws {
        let result = try Self.runEIDWithout(
            "libcurl.so.4", ["auth", "--json", "--simulator", "https://127.0.0.1:9/tctoken"])
        let messages = messageNames(result.stdoutLines)
        #expect(result.status != 0)
        #expect(messages.first == "AUTH" && messages.last == "AUTH", "\(result.stdout)")
        #expect(!messages.contains("ENTER_PIN"))
        #expect(
            (result.stdout + result.stderr).contains("apt install libcurl4"), "\(result.stdout)\n\(result.stderr)")
    }
}
