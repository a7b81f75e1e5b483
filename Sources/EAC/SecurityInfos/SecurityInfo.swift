import SmartCard

/// One SecurityInfo (BSI TR-03110-3, A.1.1): SEQUENCE { protocol OID, requiredData, optionalData }.
public indirect enum SecurityInfo: Equatable, Sendable {
    case pace(PACEInfo)
    case paceDomainParameter(PACEDomainParameterInfo)
    case chipAuthentication(ChipAuthenticationInfo)
    case chipAuthenticationDomainParameter(ChipAuthenticationDomainParameterInfo)
    case chipAuthenticationPublicKey(ChipAuthenticationPublicKeyInfo)
    case terminalAuthentication(TerminalAuthenticationInfo)
    case cardInfoLocator(CardInfoLocator)
    /// PrivilegedTerminalInfo (TR-03110-3, A.1.1.6): infos only privileged terminals see.
    case privilegedTerminal(SecurityInfos)
    case unknown(UnknownSecurityInfo)

    /// The protocol identifier.
    public var `protocol`: OID {
        switch self {
        case .pace(let i): return i.protocol
        case .paceDomainParameter(let i): return i.protocol
        case .chipAuthentication(let i): return i.protocol
        case .chipAuthenticationDomainParameter(let i): return i.protocol
        case .chipAuthenticationPublicKey(let i): return i.protocol
        case .terminalAuthentication(let i): return i.protocol
        case .cardInfoLocator: return .idCI
        case .privilegedTerminal: return .idPT
        case .unknown(let i): return i.protocol
        }
    }

    /// Reads one SecurityInfo. The kind follows from the protocol identifier; an identifier
    /// outside the interpreted families gives `.unknown`.
    public init(der: [UInt8]) throws { try self.init(tlv: DER.parse(der)) }

    init(tlv: TLV) throws {
        try DER.expect(tlv, DER.sequence)
        let c = try DER.children(tlv)
        guard let first = c.first else { throw ASN1Error.missingElement("SecurityInfo.protocol") }
        let oid = try DER.readObjectIdentifier(first)
        let rest = Array(c.dropFirst())
        do {
            self = try SecurityInfo.interpret(oid, rest, der: tlv.bytes)
        } catch let e as ASN1Error {
            switch e {
            case .malformed, .invalidObjectIdentifier: throw e
            default: throw ASN1Error.invalidSecurityInfo(oid)
            }
        }
    }

    private static func interpret(_ oid: OID, _ rest: [TLV], der: [UInt8]) throws -> SecurityInfo {
        let n = oid.components.count
        func int(_ i: Int) throws -> Int? { i < rest.count ? try DER.readInteger(rest[i]) : nil }
        func count(_ range: ClosedRange<Int>) throws {
            guard range.contains(rest.count) else { throw ASN1Error.invalidSecurityInfo(oid) }
        }
        if oid.hasPrefix(.idPACE) && n == OID.idPACE.components.count + 2 {
            try count(1...2)
            return .pace(PACEInfo(protocol: oid, version: try int(0)!, parameterID: try int(1)))
        }
        if oid.hasPrefix(.idPACE) && n == OID.idPACE.components.count + 1 {
            try count(1...2)
            return .paceDomainParameter(
                PACEDomainParameterInfo(
                    protocol: oid, domainParameter: try AlgorithmIdentifier(tlv: rest[0]), parameterID: try int(1)))
        }
        if oid.hasPrefix(.idCA) && n == OID.idCA.components.count + 2 {
            try count(1...2)
            return .chipAuthentication(ChipAuthenticationInfo(protocol: oid, version: try int(0)!, keyID: try int(1)))
        }
        if oid.hasPrefix(.idCA) && n == OID.idCA.components.count + 1 {
            try count(1...2)
            return .chipAuthenticationDomainParameter(
                ChipAuthenticationDomainParameterInfo(
                    protocol: oid, domainParameter: try AlgorithmIdentifier(tlv: rest[0]), keyID: try int(1)))
        }
        if oid.hasPrefix(.idPK) && n == OID.idPK.components.count + 1 {
            try count(1...2)
            try DER.expect(rest[0], DER.sequence)
            let spki = try DER.children(rest[0])
            guard spki.count == 2 else { throw ASN1Error.invalidSecurityInfo(oid) }
            let key = SubjectPublicKeyInfo(
                algorithm: try AlgorithmIdentifier(tlv: spki[0]), publicKey: try DER.readBitString(spki[1]))
            return .chipAuthenticationPublicKey(
                ChipAuthenticationPublicKeyInfo(
                    protocol: oid, chipAuthenticationPublicKey: key, keyID: try int(1)))
        }
        if oid == .idTA {
            try count(1...2)
            if rest.count == 2 { try DER.expect(rest[1], DER.sequence) }
            return .terminalAuthentication(
                TerminalAuthenticationInfo(
                    protocol: oid, version: try int(0)!, efCVCA: rest.count == 2 ? rest[1].bytes : nil))
        }
        if oid == .idCI {
            try count(1...2)
            if rest.count == 2 { try DER.expect(rest[1], DER.sequence) }
            return .cardInfoLocator(
                CardInfoLocator(
                    url: try DER.readIA5String(rest[0]), efCardInfo: rest.count == 2 ? rest[1].bytes : nil))
        }
        if oid == .idPT {
            try count(1...1)
            // One level only: a PrivilegedTerminalInfo inside another would let a card make
            // the parser recurse as deep as its data allows.
            for inner in (try? DER.children(rest[0])) ?? [] {
                if let first = try? DER.children(inner).first, first.tag == 0x06,
                    (try? OID(derValue: first.value)) == .idPT
                {
                    throw ASN1Error.invalidSecurityInfo(oid)
                }
            }
            return .privilegedTerminal(try SecurityInfos(tlv: rest[0]))
        }
        return .unknown(UnknownSecurityInfo(protocol: oid, der: der))
    }

    /// The DER encoding (an unknown info is reproduced as read).
    public var der: [UInt8] { tlv.bytes }

    var tlv: TLV {
        func seq(_ parts: [TLV]) -> TLV { TLV(tag: DER.sequence, children: parts) }
        func opt(_ n: Int?) -> [TLV] { n.map { [DER.encodeInteger($0)] } ?? [] }
        func raw(_ b: [UInt8]?) -> [TLV] { b.flatMap { try? TLV.parse($0) }.map { [$0] } ?? [] }
        switch self {
        case .pace(let i):
            return seq([i.protocol.tlv, DER.encodeInteger(i.version)] + opt(i.parameterID))
        case .paceDomainParameter(let i):
            return seq([i.protocol.tlv, i.domainParameter.tlv] + opt(i.parameterID))
        case .chipAuthentication(let i):
            return seq([i.protocol.tlv, DER.encodeInteger(i.version)] + opt(i.keyID))
        case .chipAuthenticationDomainParameter(let i):
            return seq([i.protocol.tlv, i.domainParameter.tlv] + opt(i.keyID))
        case .chipAuthenticationPublicKey(let i):
            let key = i.chipAuthenticationPublicKey
            let spki = seq([key.algorithm.tlv, TLV(tag: DER.bitString, value: [0] + key.publicKey)])
            return seq([i.protocol.tlv, spki] + opt(i.keyID))
        case .terminalAuthentication(let i):
            return seq([i.protocol.tlv, DER.encodeInteger(i.version)] + raw(i.efCVCA))
        case .cardInfoLocator(let i):
            return seq(
                [OID.idCI.tlv, TLV(tag: DER.ia5String, value: Array(i.url.utf8))] + raw(i.efCardInfo))
        case .privilegedTerminal(let infos):
            return seq([OID.idPT.tlv, infos.tlv])
        case .unknown(let i):
            return (try? TLV.parse(i.der)) ?? TLV(tag: DER.sequence, value: [])
        }
    }
}
