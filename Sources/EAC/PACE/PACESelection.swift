import EIDCrypto

/// Which PACEInfo of a card eid can run (BSI TR-03110-3, A.1.1.1): a card may list several
/// PACE variants in EF.CardAccess, in any order. eid implements ECDH generic mapping with AES
/// on the standardized elliptic curves (ids 8...18); Diffie-Hellman, integrated mapping,
/// chip authentication mapping, 3DES and proprietary domain parameters (ids 32 and up, described
/// by a PACEDomainParameterInfo) it does not, and skips them.
extension SecurityInfos {
    /// The first PACEInfo eid can run; throws `PACEError.noRunnablePACE` listing what the card
    /// offers when there is none.
    public func runnablePACEInfo() throws -> PACEInfo {
        guard let info = paceInfos.first(where: { $0.whyNotRunnable == nil }) else {
            throw PACEError.noRunnablePACE(offered: paceInfos)
        }
        return info
    }
}

extension PACEInfo {
    /// The lowest proprietary domain parameter id (TR-03110-3, A.1.1.1: 0...31 are standardized).
    static let firstProprietaryParameterID = 32

    /// Why eid cannot run this PACEInfo, or nil when it can.
    public var whyNotRunnable: String? {
        guard let proto = paceProtocol else { return "not a PACE protocol eid knows" }
        if proto.keyAgreement == .dh { return "Diffie-Hellman PACE is not implemented" }
        if proto.mapping == .integrated { return "integrated mapping is not implemented" }
        if proto.mapping == .chipAuthentication { return "chip authentication mapping is not implemented" }
        if proto.cipher == .tripleDES { return "3DES is not implemented" }
        guard let id = parameterID else { return "no standardized domain parameter id" }
        if id >= Self.firstProprietaryParameterID {
            return "proprietary domain parameters \(id) (PACEDomainParameterInfo) are not supported"
        }
        if ECCurve(standardizedDomainParameterID: id) == nil {
            return "standardized domain parameters \(id) are not an elliptic curve eid supports"
        }
        return nil
    }
}
