import EAC

/// The trust anchors of the German eID PKI built into eid: the CVCA certificates and the link
/// certificates between them (BSI TR-03110-3, 2.5), for the pre-verification of an eID server's
/// certificate chain (`TerminalCheck`).
///
/// Like AusweisApp's pre-verification, which builds its chain from a self-signed CVCA through
/// the link certificates it ships, the self-signed CVCAs are the anchors and the link
/// certificates are candidates for the chain (so that the chain also reaches a card whose trust
/// point is an older CVCA). AusweisApp trusts the production and the test PKIs' CVCAs alike:
/// the card verifies the chain again in Terminal Authentication, and a production card refuses a
/// test chain (and a test card a production one), so trusting the test CVCAs exposes no data.
/// The project's own test CVCA, whose private key is public, is not among them.
public enum GermanEIDPKI {
    /// One certificate as published: its CHR, its CAR (the same for a self-signed CVCA), its bytes.
    struct EncodedCVCA: Sendable {
        let holderReference: String
        let authorityReference: String
        let bytes: [UInt8]
    }

    /// A set of CVCA certificates: the self-signed ones (trust anchors) and the link certificates.
    public struct CVCASet: Sendable {
        /// Every certificate, newest first.
        public let certificates: [CVCertificate]

        /// The self-signed CVCAs: the anchors a chain starts from.
        public var anchors: [CVCertificate] { certificates.filter(\.body.isSelfSigned) }

        /// The link certificates (CVCA(old) → CVCA(new)).
        public var links: [CVCertificate] { certificates.filter { !$0.body.isSelfSigned } }

        init(_ encoded: [EncodedCVCA]) {
            // The bytes are compiled in and checked by the tests (each parses, with its CHR and CAR).
            certificates = encoded.compactMap { try? CVCertificate(encoded: $0.bytes) }
        }
    }

    /// The production PKI (DECVCAeID…).
    public static let production = CVCASet(productionEncoded)

    /// The test PKIs (DETESTeID…, DECVCAeIDCT…).
    public static let test = CVCASet(testEncoded)
}
