import SmartCard

/// A SecurityInfo whose protocol this module does not interpret (Restricted Identification,
/// Pseudonymous Signatures, eIDSecurityInfo, vendor data…): kept whole, never rejected.
public struct UnknownSecurityInfo: Equatable, Sendable {
    public var `protocol`: OID
    /// The complete DER of the SecurityInfo SEQUENCE.
    public var der: [UInt8]

    public init(protocol: OID, der: [UInt8]) {
        self.protocol = `protocol`
        self.der = der
    }
}
