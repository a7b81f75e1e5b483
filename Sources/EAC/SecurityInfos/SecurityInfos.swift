import SmartCard

/// SecurityInfos ::= SET OF SecurityInfo (BSI TR-03110-3, A.1.1): the content of EF.CardAccess,
/// and the signed content of EF.CardSecurity / EF.ChipSecurity.
public struct SecurityInfos: Equatable, Sendable {
    public var infos: [SecurityInfo]

    public init(_ infos: [SecurityInfo]) { self.infos = infos }

    /// Reads exactly one DER SET OF SecurityInfo; trailing bytes are an error.
    public init(der: [UInt8]) throws { try self.init(tlv: DER.parse(der)) }

    /// Reads EF.CardAccess as a card returns it: one SET OF SecurityInfo, followed by whatever
    /// padding some cards leave in the file (ignored).
    public init(efCardAccess bytes: [UInt8]) throws {
        var offset = 0
        let tlv: TLV
        do { tlv = try TLV.read(bytes, at: &offset) } catch let e as TLVError { throw ASN1Error.malformed(e) }
        try self.init(tlv: tlv)
    }

    /// Reads EF.CardSecurity (or EF.ChipSecurity): a CMS ContentInfo with SignedData
    /// (RFC 5652) whose encapsulated content has type id-SecurityObject and is a DER
    /// SecurityInfos (TR-03110-3, A.1.2.2). The signature is not verified here.
    public init(efCardSecurity bytes: [UInt8]) throws {
        func fail(_ why: String) -> ASN1Error { .notSignedSecurityInfos(why) }
        var offset = 0
        let contentInfo: TLV
        do { contentInfo = try TLV.read(bytes, at: &offset) } catch let e as TLVError { throw ASN1Error.malformed(e) }
        try DER.expect(contentInfo, DER.sequence)
        let ci = try DER.children(contentInfo)
        guard ci.count == 2, try DER.readObjectIdentifier(ci[0]) == .signedData else { throw fail("not signedData") }
        try DER.expect(ci[1], 0xA0)
        guard let signedData = try DER.children(ci[1]).first, ci[1].value.count == signedData.bytes.count else {
            throw fail("no SignedData")
        }
        try DER.expect(signedData, DER.sequence)
        let sd = try DER.children(signedData)
        guard sd.count >= 4 else { throw fail("SignedData has \(sd.count) elements") }
        _ = try DER.readInteger(sd[0])
        try DER.expect(sd[1], DER.set)
        try DER.expect(sd[2], DER.sequence)
        let encap = try DER.children(sd[2])
        guard encap.count == 2 else { throw fail("no encapsulated content") }
        let type = try DER.readObjectIdentifier(encap[0])
        guard type == .idSecurityObject else { throw fail("content type \(type)") }
        try DER.expect(encap[1], 0xA0)
        let octets = try DER.children(encap[1])
        guard octets.count == 1 else { throw fail("eContent is not one OCTET STRING") }
        try DER.expect(octets[0], DER.octetString)
        try self.init(der: octets[0].value)
    }

    init(tlv: TLV) throws {
        try DER.expect(tlv, DER.set)
        infos = try DER.children(tlv).map(SecurityInfo.init(tlv:))
    }

    /// The DER encoding: a SET OF in the order of `infos` (as the card files store them).
    public var der: [UInt8] { tlv.bytes }

    var tlv: TLV { TLV(tag: DER.set, children: infos.map(\.tlv)) }

    public var paceInfos: [PACEInfo] { infos.compactMap { if case .pace(let i) = $0 { return i } else { return nil } } }

    public var paceDomainParameterInfos: [PACEDomainParameterInfo] {
        infos.compactMap { if case .paceDomainParameter(let i) = $0 { return i } else { return nil } }
    }

    public var chipAuthenticationInfos: [ChipAuthenticationInfo] {
        infos.compactMap { if case .chipAuthentication(let i) = $0 { return i } else { return nil } }
    }

    public var chipAuthenticationDomainParameterInfos: [ChipAuthenticationDomainParameterInfo] {
        infos.compactMap { if case .chipAuthenticationDomainParameter(let i) = $0 { return i } else { return nil } }
    }

    public var chipAuthenticationPublicKeyInfos: [ChipAuthenticationPublicKeyInfo] {
        infos.compactMap { if case .chipAuthenticationPublicKey(let i) = $0 { return i } else { return nil } }
    }

    public var terminalAuthenticationInfo: TerminalAuthenticationInfo? {
        infos.lazy.compactMap { if case .terminalAuthentication(let i) = $0 { return i } else { return nil } }.first
    }

    public var cardInfoLocator: CardInfoLocator? {
        infos.lazy.compactMap { if case .cardInfoLocator(let i) = $0 { return i } else { return nil } }.first
    }

    /// The infos inside a PrivilegedTerminalInfo, if present.
    public var privilegedTerminalInfos: SecurityInfos? {
        infos.lazy.compactMap { if case .privilegedTerminal(let i) = $0 { return i } else { return nil } }.first
    }

    public var unknownInfos: [UnknownSecurityInfo] {
        infos.compactMap { if case .unknown(let i) = $0 { return i } else { return nil } }
    }
}
