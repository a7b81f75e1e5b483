import SmartCard

/// AlgorithmIdentifier (RFC 5280): an algorithm and its parameters, kept as raw DER. Domain
/// parameters of the eID card are usually `standardizedDomainParameters` with an INTEGER id.
public struct AlgorithmIdentifier: Equatable, Sendable {
    public var algorithm: OID
    /// The DER encoding of the parameters, or nil when absent.
    public var parameters: [UInt8]?

    public init(algorithm: OID, parameters: [UInt8]? = nil) {
        self.algorithm = algorithm
        self.parameters = parameters
    }

    /// standardizedDomainParameters with the given id (TR-03110-3, A.2.1.1).
    public static func standardized(_ id: Int) -> AlgorithmIdentifier {
        AlgorithmIdentifier(algorithm: .standardizedDomainParameters, parameters: DER.encodeInteger(id).bytes)
    }

    /// The standardized domain parameter id, when the algorithm is standardizedDomainParameters.
    public var standardizedDomainParameterID: Int? {
        guard algorithm == .standardizedDomainParameters, let p = parameters, let tlv = try? DER.parse(p) else {
            return nil
        }
        return try? DER.readInteger(tlv)
    }

    init(tlv: TLV) throws {
        try DER.expect(tlv, DER.sequence)
        let c = try DER.children(tlv)
        guard let first = c.first else { throw ASN1Error.missingElement("AlgorithmIdentifier.algorithm") }
        guard c.count <= 2 else { throw ASN1Error.invalidContent("AlgorithmIdentifier with extra elements") }
        algorithm = try DER.readObjectIdentifier(first)
        parameters = c.count == 2 ? c[1].bytes : nil
    }

    var tlv: TLV {
        var parts = algorithm.tlv.bytes
        if let parameters { parts += parameters }
        return TLV(tag: DER.sequence, value: parts)
    }
}

/// PACEInfo (BSI TR-03110-3, A.1.1.1; ICAO 9303-11, 9.2.1): a PACE protocol the card supports.
public struct PACEInfo: Equatable, Sendable {
    public var `protocol`: OID
    public var version: Int
    /// The standardized domain parameter id, or a reference to a PACEDomainParameterInfo.
    public var parameterID: Int?

    public init(protocol: OID, version: Int = 2, parameterID: Int? = nil) {
        self.protocol = `protocol`
        self.version = version
        self.parameterID = parameterID
    }

    /// The protocol's parts, or nil when this module does not know the identifier.
    public var paceProtocol: PACEProtocol? { PACEProtocol(oid: `protocol`) }
}

/// PACEDomainParameterInfo (TR-03110-3, A.1.1.1): explicit or referenced domain parameters.
public struct PACEDomainParameterInfo: Equatable, Sendable {
    public var `protocol`: OID
    public var domainParameter: AlgorithmIdentifier
    public var parameterID: Int?

    public init(protocol: OID, domainParameter: AlgorithmIdentifier, parameterID: Int? = nil) {
        self.protocol = `protocol`
        self.domainParameter = domainParameter
        self.parameterID = parameterID
    }
}

/// ChipAuthenticationInfo (TR-03110-3, A.1.1.2): a Chip Authentication protocol and version.
public struct ChipAuthenticationInfo: Equatable, Sendable {
    public var `protocol`: OID
    public var version: Int
    public var keyID: Int?

    public init(protocol: OID, version: Int = 2, keyID: Int? = nil) {
        self.protocol = `protocol`
        self.version = version
        self.keyID = keyID
    }
}

/// ChipAuthenticationDomainParameterInfo (TR-03110-3, A.1.1.2).
public struct ChipAuthenticationDomainParameterInfo: Equatable, Sendable {
    public var `protocol`: OID
    public var domainParameter: AlgorithmIdentifier
    public var keyID: Int?

    public init(protocol: OID, domainParameter: AlgorithmIdentifier, keyID: Int? = nil) {
        self.protocol = `protocol`
        self.domainParameter = domainParameter
        self.keyID = keyID
    }
}

/// SubjectPublicKeyInfo (RFC 5280) as TR-03110 uses it for the chip's static CA key.
public struct SubjectPublicKeyInfo: Equatable, Sendable {
    public var algorithm: AlgorithmIdentifier
    /// The BIT STRING's content: for ECDH the uncompressed point 04 || X || Y.
    public var publicKey: [UInt8]

    public init(algorithm: AlgorithmIdentifier, publicKey: [UInt8]) {
        self.algorithm = algorithm
        self.publicKey = publicKey
    }
}

/// ChipAuthenticationPublicKeyInfo (TR-03110-3, A.1.1.2): the chip's static Chip
/// Authentication key, found in EF.CardSecurity.
public struct ChipAuthenticationPublicKeyInfo: Equatable, Sendable {
    /// id-PK-DH or id-PK-ECDH.
    public var `protocol`: OID
    public var chipAuthenticationPublicKey: SubjectPublicKeyInfo
    public var keyID: Int?

    public init(protocol: OID, chipAuthenticationPublicKey: SubjectPublicKeyInfo, keyID: Int? = nil) {
        self.protocol = `protocol`
        self.chipAuthenticationPublicKey = chipAuthenticationPublicKey
        self.keyID = keyID
    }
}

/// TerminalAuthenticationInfo (TR-03110-3, A.1.1.3).
public struct TerminalAuthenticationInfo: Equatable, Sendable {
    public var `protocol`: OID
    public var version: Int
    /// The DER of the optional efCVCA FileID, kept as read.
    public var efCVCA: [UInt8]?

    public init(protocol: OID = .idTA, version: Int = 2, efCVCA: [UInt8]? = nil) {
        self.protocol = `protocol`
        self.version = version
        self.efCVCA = efCVCA
    }
}

/// CardInfoLocator (TR-03110-3, A.1.1.5): where the card's CardInfo is described.
public struct CardInfoLocator: Equatable, Sendable {
    public var url: String
    /// The DER of the optional efCardInfo FileID, kept as read.
    public var efCardInfo: [UInt8]?

    public init(url: String, efCardInfo: [UInt8]? = nil) {
        self.url = url
        self.efCardInfo = efCardInfo
    }
}

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
