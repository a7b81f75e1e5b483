/// The role of a CV certificate's holder: the two most significant bits of the CHAT's relative
/// authorization (TR-03110-3, C.4.1; TR-03110-4, 2.2.3). For signature terminals the DV roles
/// are called accreditation body and certification service provider.
public enum CertificateRole: UInt8, CaseIterable, Sendable, CustomStringConvertible {
    /// 11: country verifying certification authority.
    case cvca = 0b11
    /// 10: document verifier, official domestic.
    case dvOfficialDomestic = 0b10
    /// 01: document verifier, non-official or foreign.
    case dvNonOfficialForeign = 0b01
    /// 00: terminal (authentication, inspection or signature terminal).
    case terminal = 0b00

    public var isDocumentVerifier: Bool { self == .dvOfficialDomestic || self == .dvNonOfficialForeign }

    public var description: String {
        switch self {
        case .cvca: return "CVCA"
        case .dvOfficialDomestic: return "DV (official domestic)"
        case .dvNonOfficialForeign: return "DV (non-official / foreign)"
        case .terminal: return "terminal"
        }
    }
}
