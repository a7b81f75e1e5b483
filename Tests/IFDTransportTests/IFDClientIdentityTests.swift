import EIDCrypto
import Foundation
import Testing

@testable import IFDTransport

/// eid's own key and certificate for phones: made once as AusweisApp makes its own, kept 0600 in 0700, loaded
/// again, and a clear error (nothing changed) for a file that is broken or open to others.
@Suite("IFDClientIdentity")
struct IFDClientIdentityTests {
    @Test("made in a new directory: 0700 directories, a 0600 file, the same identity when loaded again")
    func createAndReload() throws {
        let base = IFDTestFixtures.temporaryDirectory("create")
        let directory = base + "/config/eid/ifd"
        let made = try IFDClientIdentity.loadOrCreate(directory: directory)
        #expect(try mode(directory) == 0o700)
        #expect(try mode(base + "/config/eid") == 0o700)
        #expect(try mode(directory + "/" + IFDClientIdentity.fileName) == 0o600)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == [IFDClientIdentity.fileName])
        let loaded = try IFDClientIdentity.loadOrCreate(directory: directory)
        #expect(loaded.certificateDER == made.certificateDER)
        #expect(loaded.key.bits == 3072 && loaded.key.isRSA)
    }

    @Test("the certificate as AusweisApp makes its own: self-signed, CN eid, RSA 3072, 1970 to 9999 (openssl x509)")
    func certificateFields() throws {
        let directory = IFDTestFixtures.temporaryDirectory("fields")
        let path = directory + "/certificate.der"
        _ = FileManager.default.createFile(atPath: path, contents: Data(IFDTestFixtures.identity.certificateDER))
        let text = try run("/usr/bin/openssl", ["x509", "-inform", "DER", "-in", path, "-noout", "-text"])
        #expect(text.contains("Version: 1 (0x0)"))
        #expect(text.contains("Issuer: CN = eid, serialNumber = "))
        #expect(text.contains("Subject: CN = eid, serialNumber = "))
        #expect(text.contains("Not Before: Jan  1 00:00:00 1970 GMT"))
        #expect(text.contains("Not After : Dec 31 23:59:59 9999 GMT"))
        #expect(text.contains("Public-Key: (3072 bit)"))
        #expect(text.contains("Signature Algorithm: sha256WithRSAEncryption"))
        let verify = try run("/usr/bin/openssl", ["verify", "-CAfile", pemFile(directory), pemFile(directory)])
        #expect(verify.contains(": OK"))
    }

    @Test("two identities differ (fresh key, random serials)")
    func fresh() throws {
        let other = try IFDClientIdentity.loadOrCreate(directory: IFDTestFixtures.temporaryDirectory("other") + "/ifd")
        #expect(other.certificateDER != IFDTestFixtures.identity.certificateDER)
    }

    @Test("a file others may read is refused and left as it is")
    func filePermissions() throws {
        let directory = IFDTestFixtures.temporaryDirectory("filemode")
        chmod(directory, 0o700)
        _ = try IFDClientIdentity.loadOrCreate(directory: directory)
        let file = directory + "/" + IFDClientIdentity.fileName
        let before = try Data(contentsOf: URL(fileURLWithPath: file))
        chmod(file, 0o644)
        let result = transportError { _ = try IFDClientIdentity.loadOrCreate(directory: directory) }
        #expect(result.error == .identityPermissions(path: file, mode: UInt32(S_IFREG) | 0o644))
        #expect(result.error?.description.contains("chmod 600 \(file)") == true)
        #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == before)
    }

    @Test("a directory others may enter is refused, nothing written")
    func directoryPermissions() throws {
        let directory = IFDTestFixtures.temporaryDirectory("dirmode")
        chmod(directory, 0o755)
        let result = transportError { _ = try IFDClientIdentity.loadOrCreate(directory: directory) }
        #expect(result.error == .identityPermissions(path: directory, mode: UInt32(S_IFDIR) | 0o755))
        #expect(result.error?.description.contains("chmod 700") == true)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).isEmpty)
    }

    @Test(
        "a corrupt file is an error that says what to do, and is left as it is",
        arguments: [
            "garbage", "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n", "certificate only",
            "other key",
        ])
    func corrupt(kind: String) throws {
        let directory = IFDTestFixtures.temporaryDirectory("corrupt")
        chmod(directory, 0o700)
        let file = directory + "/" + IFDClientIdentity.fileName
        let identity = IFDTestFixtures.identity
        var contents: [UInt8]
        switch kind {
        case "certificate only": contents = identity.certificate.pem
        case "other key": contents = try X509PrivateKey(generatingRSABits: 3072).pem() + identity.certificate.pem
        default: contents = Array(kind.utf8)
        }
        _ = FileManager.default.createFile(
            atPath: file, contents: Data(contents), attributes: [.posixPermissions: 0o600])
        let result = transportError { _ = try IFDClientIdentity.loadOrCreate(directory: directory) }
        guard case .identityCorrupt(let path, _) = result.error else {
            Issue.record("expected identityCorrupt, got \(String(describing: result.error))")
            return
        }
        #expect(path == file)
        #expect(result.error?.description.contains("remove it") == true)
        #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == Data(contents))
    }

    @Test("an unreadable file (a directory in its place) is an error")
    func unreadable() throws {
        let directory = IFDTestFixtures.temporaryDirectory("unreadable")
        chmod(directory, 0o700)
        mkdir(directory + "/" + IFDClientIdentity.fileName, 0o700)
        let result = transportError { _ = try IFDClientIdentity.loadOrCreate(directory: directory) }
        guard case .identityUnreadable = result.error else {
            Issue.record("expected identityUnreadable, got \(String(describing: result.error))")
            return
        }
    }

    @Test("two processes' worth of concurrent creation agree on one identity")
    func concurrentCreation() async throws {
        let directory = IFDTestFixtures.temporaryDirectory("race") + "/ifd"
        let made = await withTaskGroup(of: [UInt8]?.self) { group in
            for _ in 0..<3 {
                group.addTask { try? IFDClientIdentity.loadOrCreate(directory: directory).certificateDER }
            }
            var all: [[UInt8]?] = []
            for await one in group { all.append(one) }
            return all
        }
        let final = try IFDClientIdentity.loadOrCreate(directory: directory).certificateDER
        #expect(made.allSatisfy { $0 == final })
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == [IFDClientIdentity.fileName])
    }

    private func mode(_ path: String) throws -> UInt32 {
        var status = stat()
        guard stat(path, &status) == 0 else { throw IFDTestError.unexpected("stat \(path)") }
        return UInt32(status.st_mode) & 0o7777
    }

    private func pemFile(_ directory: String) -> String {
        let path = directory + "/certificate.pem"
        if !FileManager.default.fileExists(atPath: path) {
            _ = FileManager.default.createFile(atPath: path, contents: Data(IFDTestFixtures.identity.certificate.pem))
        }
        return path
    }
}

/// Runs a program, its standard output and error as text.
func run(_ program: String, _ arguments: [String]) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: program)
    process.arguments = arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: data, as: UTF8.self)
}
