import CardSimulator
import EAC
import EIDCrypto
import EIDTestServer
import FoundationEssentials
import Online
import SmartCard
import TestPKI
import Testing

/// `eid-testserver pki --out DIR` and `serve --pki DIR` without files: a generated directory
/// loads as the server's PKI and serves whole sessions under its own CVCA, description and
/// CSCA; each missing or mismatched file is refused with its name.
@Suite struct ServerPKIDirectoryTests {
    static let origin = "https://127.0.0.1:18555"
    static let tls = Array("another TLS certificate".utf8)
    static let now = Int64(Date().timeIntervalSince1970)
    static let files: [ServerPKIFile: [UInt8]] = {
        do { return try ServerPKIDirectory.generate(origin: origin, tlsCertificate: tls, now: now) } catch {
            preconditionFailure("cannot generate: \(error)")
        }
    }()

    func load(_ files: [ServerPKIFile: [UInt8]] = Self.files, origin: String = Self.origin, tls: [UInt8] = Self.tls)
        throws(ServerPKIDirectoryError) -> ServerPKI
    {
        try ServerPKIDirectory.load(origin: origin, tlsCertificate: tls) { files[$0] }
    }

    @Test func aGeneratedDirectoryLoadsWithEverythingItNeeds() throws {
        #expect(Set(Self.files.keys) == Set(ServerPKIFile.allCases).subtracting([.tlsCertificate, .tlsKey, .origin]))
        let pki = try load()
        #expect(try pki.cvca.encoded == Self.files[.cvca])
        #expect(pki.cvca != TestCertificateAuthority.project.certificate)
        #expect(pki.description.subjectURL == Self.origin)
        #expect(pki.description.commCertificates == [try Digest.sha256.hash(Self.tls)])
        #expect(pki.description.subjectName.contains("TEST ONLY"))
        #expect(try pki.description.matches(pki.terminal.certificate))
        #expect(pki.csca.der == Self.files[.csca])
        #expect(pki.authority != nil, "cvca.key makes chat_beyond_dv possible")
        let beyond = try EIDServerSession(
            configuration: SessionConfiguration(sessionIdentifier: "s", pki: pki, faults: ServerFaults([.chatBeyondDV]))
        )
        #expect(beyond.state == .waitingForStartPAOS)
        // Without cvca.key the rest still serves, but no session can issue a new DV.
        var withoutKey = Self.files
        withoutKey[.cvcaKey] = nil
        let keyless = try load(withoutKey)
        #expect(keyless.authority == nil)
        #expect(throws: ServerPKIError.self) {
            try EIDServerSession(
                configuration: SessionConfiguration(
                    sessionIdentifier: "s", pki: keyless, faults: ServerFaults([.chatBeyondDV])))
        }
    }

    @Test func theMatchingCardsEFCardSecurityVerifiesUnderTheCSCA() throws {
        let pki = try load()
        let infos = try PassiveAuthentication.verify(try #require(Self.files[.cardSecurity]), csca: pki.csca)
        let selection = try ChipAuthentication.select(from: infos)
        let scalar = try #require(Self.files[.cardChipAuthenticationKey])
        let key = try ECKeyPair(group: try ECGroup(.brainpoolP256r1), privateScalar: scalar)
        #expect(selection.publicKey == key.publicKey)
        #expect(try SecurityInfos(efCardAccess: try #require(Self.files[.cardAccess])).paceInfos.count == 1)
        // Not under the project's CSCA: the card is the directory's own.
        #expect(throws: (any Error).self) {
            try PassiveAuthentication.verify(Self.files[.cardSecurity] ?? [], csca: DocumentTestPKI.csca)
        }
    }

    @Test func aWholeSessionRunsUnderTheDirectorysPKI() throws {
        let pki = try load()
        var profile = CardProfile()
        profile.trustAnchors = [pki.cvca]
        var session = try EIDServerSession(
            configuration: SessionConfiguration(sessionIdentifier: Fixture.sessionIdentifier, pki: pki))
        var client = TestEIDClient(card: SimulatedEIDCard(profile: profile), tlsCertificate: Self.tls)
        client.tcTokenURL = Self.origin + "/tctoken"
        client.trustAnchors = [pki.cvca]
        let outcome = client.run(&session, sessionIdentifier: Fixture.sessionIdentifier)
        #expect(outcome.serverResult == .ok && outcome.localError == nil)
        let result = try #require(session.result)
        #expect(result.ok)
        // eid-sim's EF.CardSecurity is signed under the project's CSCA, not the directory's.
        #expect(result.passiveAuthentication == .foreignCard)

        // A card that trusts only the project's CVCA refuses the directory's certificates.
        var stranger = try EIDServerSession(
            configuration: SessionConfiguration(sessionIdentifier: Fixture.sessionIdentifier, pki: pki))
        var strangerClient = TestEIDClient(tlsCertificate: Self.tls)
        strangerClient.tcTokenURL = Self.origin + "/tctoken"
        strangerClient.trustAnchors = [pki.cvca]
        let refused = strangerClient.run(&stranger, sessionIdentifier: Fixture.sessionIdentifier)
        #expect(refused.result.major == .error)
        #expect(stranger.result?.ok == false)
    }

    @Test(arguments: ServerPKIFile.requiredByServe.filter { ![.tlsCertificate, .tlsKey, .origin].contains($0) })
    func aMissingFileIsNamed(_ file: ServerPKIFile) {
        var files = Self.files
        files[file] = nil
        #expect(throws: ServerPKIDirectoryError.missing(file)) { try load(files) }
        #expect(ServerPKIDirectoryError.missing(file).description.contains(file.rawValue))
    }

    @Test func mismatchedFilesAreRefusedClearly() throws {
        let other = try ServerPKIDirectory.generate(origin: Self.origin, tlsCertificate: Self.tls, now: Self.now)
        var files = Self.files
        files[.terminalKey] = other[.terminalKey]
        #expect(throws: ServerPKIDirectoryError.keyMismatch(.terminalKey)) { try load(files) }
        files = Self.files
        files[.documentVerifierKey] = other[.documentVerifierKey]
        #expect(throws: ServerPKIDirectoryError.keyMismatch(.documentVerifierKey)) { try load(files) }
        files = Self.files
        files[.cvcaKey] = other[.cvcaKey]
        #expect(throws: ServerPKIDirectoryError.keyMismatch(.cvcaKey)) { try load(files) }
        // A DV (with its key) of another CVCA: the chain does not verify.
        files = Self.files
        files[.documentVerifier] = other[.documentVerifier]
        files[.documentVerifierKey] = other[.documentVerifierKey]
        #expect {
            try load(files)
        } throws: { error in
            guard case .invalid(.invalidChain) = error as? ServerPKIDirectoryError else { return false }
            return true
        }
        // Another description for the same origin and TLS certificate (the AT carries the hash of
        // the directory's).
        files = Self.files
        files[.description] = try ServerPKI.description(
            subjectURL: Self.origin,
            commCertificates: [try Digest.sha256.hash(Self.tls), [UInt8](repeating: 1, count: 32)]
        ).encoded
        #expect(throws: ServerPKIDirectoryError.invalid(.descriptionHashMismatch)) { try load(files) }
        files = Self.files
        files[.terminal] = Array("not a certificate".utf8)
        #expect(throws: ServerPKIDirectoryError.malformed(.terminal)) { try load(files) }
        files = Self.files
        files[.csca] = [0x30, 0x00]
        #expect(throws: ServerPKIDirectoryError.malformed(.csca)) { try load(files) }
        // Served at another origin, or with another TLS certificate, than the description names.
        #expect(
            throws: ServerPKIDirectoryError.descriptionNotForOrigin(
                subjectURL: Self.origin, origin: "https://127.0.0.1:18556")
        ) { try load(origin: "https://127.0.0.1:18556") }
        #expect(throws: ServerPKIDirectoryError.tlsCertificateNotInDescription) { try load(tls: [1, 2, 3]) }
        for error in [ServerPKIDirectoryError.tlsCertificateNotInDescription, .keyMismatch(.terminalKey)] {
            #expect(error.description.contains("eid-testserver pki --out DIR"))
        }
    }
}
