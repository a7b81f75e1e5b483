import EIDCrypto
import Foundation
import TestPKI
import Testing

@testable import EAC

/// The CVCAs of the German eID PKI built into eid: each certificate as its comment names it, the
/// self-signed ones signed by their own key, every link certificate by its predecessor's, and
/// pre-verification building a chain through the links to a self-signed anchor.
@Suite struct GermanEIDPKITests {
    static let sets: [(String, [GermanEIDPKI.EncodedCVCA], GermanEIDPKI.CVCASet)] = [
        ("production", GermanEIDPKI.productionEncoded, GermanEIDPKI.production),
        ("test", GermanEIDPKI.testEncoded, GermanEIDPKI.test),
    ]

    @Test func everyCertificateParsesAsTheCVCAItsCommentNames() throws {
        for (name, encoded, set) in Self.sets {
            #expect(set.certificates.count == encoded.count, "\(name): a certificate does not parse")
            for entry in encoded {
                let certificate = try CVCertificate(encoded: entry.bytes)
                #expect(certificate.role == .cvca, "\(entry.holderReference) is not a CVCA certificate")
                #expect(certificate.body.holderReference == entry.holderReference)
                #expect(certificate.body.authorityReference == entry.authorityReference)
                #expect(certificate.body.publicKey.domainParameters != nil)
                #expect(try certificate.encoded == entry.bytes, "\(entry.holderReference) does not re-encode")
            }
            #expect(Set(set.certificates.map(\.body.holderReference)).count == encoded.count, "\(name): a CHR twice")
        }
        #expect(GermanEIDPKI.production.certificates.count == 6)
        #expect(GermanEIDPKI.test.certificates.count == 13)
    }

    /// The DER files under Sources/EAC/GermanEIDPKI/CVCA, by name.
    static func filesOnDisk() throws -> [String: [UInt8]] {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Sources/EAC/GermanEIDPKI/CVCA").standardized
        var files: [String: [UInt8]] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) where name.hasSuffix(".der") {
            files[name] = Array(try Data(contentsOf: folder.appendingPathComponent(name)))
        }
        return files
    }

    /// Every DER file is listed once, under its own CHR, with the bytes the build embedded from it;
    /// and every entry has its file (a file added without an entry, or the reverse, fails here).
    @Test func everyFileIsListedWithTheBytesEmbeddedFromIt() throws {
        let files = try Self.filesOnDisk()
        let entries = GermanEIDPKI.productionEncoded + GermanEIDPKI.testEncoded
        #expect(files.count == 19)
        #expect(Set(entries.map { "\($0.holderReference).der" }) == Set(files.keys))
        #expect(entries.count == files.count)
        for entry in entries {
            #expect(files["\(entry.holderReference).der"] == entry.bytes, "\(entry.holderReference)")
        }
    }

    /// The public key of `certificate` on its own domain parameters.
    func key(_ certificate: CVCertificate) throws -> ECPoint {
        try certificate.body.publicKey.point(inheriting: nil)
    }

    @Test func selfSignedCVCAsVerifyUnderTheirOwnKey() throws {
        for (_, _, set) in Self.sets {
            #expect(!set.anchors.isEmpty)
            for anchor in set.anchors {
                #expect(
                    try anchor.isSigned(by: try key(anchor), algorithm: anchor.body.publicKey.algorithm),
                    "\(anchor.body.holderReference)")
            }
        }
        #expect(GermanEIDPKI.production.anchors.map(\.body.holderReference) == ["DECVCAeID00102"])
        #expect(
            GermanEIDPKI.test.anchors.map(\.body.holderReference).sorted() == ["DECVCAeIDCT00001", "DETESTeID00001"])
    }

    @Test func everyLinkCertificateVerifiesUnderItsPredecessor() throws {
        for (_, _, set) in Self.sets {
            for link in set.links {
                let predecessor = try #require(
                    set.certificates.first { $0.body.holderReference == link.body.authorityReference },
                    "no predecessor \(link.body.authorityReference) for \(link.body.holderReference)")
                #expect(
                    try link.isSigned(by: try key(predecessor), algorithm: predecessor.body.publicKey.algorithm),
                    "\(link.body.holderReference) under \(predecessor.body.holderReference)")
                // And not under any other CVCA of the set (a check that can fail).
                for other in set.certificates where other != predecessor {
                    #expect(!(try link.isSigned(by: try key(other), algorithm: other.body.publicKey.algorithm)))
                }
            }
        }
    }

    /// Pre-verification's chain building: from the newest CVCA of each PKI back through the link
    /// certificates to the self-signed anchor, verified on a day the newest one is valid.
    @Test(arguments: ["DECVCAeID00107", "DETESTeID00008", "DECVCAeIDCTL0405"])
    func chainsReachTheSelfSignedAnchorThroughTheLinks(newest: String) throws {
        let all = GermanEIDPKI.production.certificates + GermanEIDPKI.test.certificates
        let target = try #require(all.first { $0.body.holderReference == newest })
        let chain = try CVCertificateChain(
            target: target, pool: GermanEIDPKI.production.links + GermanEIDPKI.test.links,
            trustAnchors: GermanEIDPKI.production.anchors + GermanEIDPKI.test.anchors, date: target.body.effectiveDate)
        #expect(chain.anchor.body.isSelfSigned)
        #expect(chain.certificates.count > 2)
        #expect(chain.target == target)
        // Without the link certificates there is no way from the anchor to the newest CVCA.
        #expect(throws: CVCertificateChainError.self) {
            try CVCertificateChain(
                target: target, pool: [], trustAnchors: GermanEIDPKI.production.anchors + GermanEIDPKI.test.anchors,
                date: target.body.effectiveDate)
        }
    }

    @Test func theProjectTestCVCAIsNotBuiltIn() {
        let project = TestCertificateAuthority.project.certificate
        #expect(!GermanEIDPKI.production.certificates.contains(project))
        #expect(!GermanEIDPKI.test.certificates.contains(project))
    }
}
