import EAC

/// An authentication terminal of the test PKI: its CVCA, a DV certificate and the terminal
/// certificate with its private key, which signs Terminal Authentication (TEST ONLY).
public struct TestTerminal: Sendable {
    /// What a test terminal may do unless told otherwise: read every data group of the eID
    /// application, age and community-ID verification, restricted identification, CAN allowed.
    public static let defaultRights: Set<AccessRight> = Set(
        AccessRight.allCases.filter {
            (AccessRight.readDG1.rawValue...AccessRight.readDG21.rawValue).contains($0.rawValue)
        }
    ).union([.ageVerification, .communityIDVerification, .restrictedIdentification, .canAllowed])

    /// The rights of an online eService's terminal (eid-testserver's): the default rights
    /// without CAN allowed. CAN allowed is for on-site reading: a client that finds it in the AT
    /// certificate offers it as an optional right (AusweisApp2 does in SDK mode), and when it is
    /// kept runs PACE with the CAN instead of the PIN.
    public static let eServiceRights: Set<AccessRight> = defaultRights.subtracting([.canAllowed])

    public let cvca: CVCertificate
    public let documentVerifier: IssuedCertificate
    public let terminal: IssuedCertificate

    public init(cvca: CVCertificate, documentVerifier: IssuedCertificate, terminal: IssuedCertificate) {
        self.cvca = cvca
        self.documentVerifier = documentVerifier
        self.terminal = terminal
    }

    /// The certificates a terminal sends with PSO:Verify Certificate after the card's CVCA:
    /// the DV's, then its own.
    public var chain: [CVCertificate] { [documentVerifier.certificate, terminal.certificate] }
}
