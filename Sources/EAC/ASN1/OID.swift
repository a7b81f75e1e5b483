import SmartCard

/// An ASN.1 OBJECT IDENTIFIER (ITU-T X.690 8.19), with the names BSI TR-03110-3 (appendix A)
/// and ICAO 9303-11 give the eID protocols' identifiers.
/// Named `OID`, not `ObjectIdentifier`, so that it never shadows `Swift.ObjectIdentifier`.
public struct OID: Hashable, Sendable, CustomStringConvertible {
    public let components: [UInt64]

    /// An identifier from its arcs. The first arc is 0, 1 or 2 and at least two arcs are given
    /// (this is not checked here; `derValue` is only meaningful for such identifiers).
    public init(_ components: [UInt64]) { self.components = components }

    /// Parses dotted notation ("0.4.0.127.0.7.2.2.4.2.2"); nil when malformed.
    public init?(dotted: String) {
        let parts = dotted.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count >= 2 else { return nil }
        var arcs: [UInt64] = []
        for p in parts {
            guard !p.isEmpty, p.allSatisfy({ $0.isASCII && $0.isNumber }), let n = UInt64(p) else { return nil }
            arcs.append(n)
        }
        guard arcs[0] <= 2, arcs[0] == 2 || arcs[1] < 40 else { return nil }
        components = arcs
    }

    /// The identifier that BSI TR-03110 or ICAO 9303 names `name` (e.g. "id-PACE-ECDH-GM-AES-CBC-CMAC-128").
    public init?(name: String) {
        guard let oid = OID.names.first(where: { $0.value == name })?.key else { return nil }
        self = oid
    }

    /// Decodes the content octets of an OBJECT IDENTIFIER (without tag and length). Empty
    /// content, a non-minimal arc (leading 0x80), a truncated last arc or an arc above 2^63
    /// are `ASN1Error.invalidObjectIdentifier`.
    public init(derValue bytes: [UInt8]) throws {
        guard !bytes.isEmpty, bytes.last! & 0x80 == 0 else { throw ASN1Error.invalidObjectIdentifier }
        var arcs: [UInt64] = []
        var value: UInt64 = 0
        var startOfArc = true
        for b in bytes {
            if startOfArc && b == 0x80 { throw ASN1Error.invalidObjectIdentifier }
            guard value >> 57 == 0 else { throw ASN1Error.invalidObjectIdentifier }
            value = value << 7 | UInt64(b & 0x7F)
            startOfArc = b & 0x80 == 0
            if startOfArc {
                if arcs.isEmpty {
                    let first: UInt64 = value < 40 ? 0 : value < 80 ? 1 : 2
                    arcs += [first, value - first * 40]
                } else {
                    arcs.append(value)
                }
                value = 0
            }
        }
        components = arcs
    }

    /// Decodes a complete DER OBJECT IDENTIFIER (tag 06, length, content).
    public init(der: [UInt8]) throws {
        self = try DER.readObjectIdentifier(try DER.parse(der))
    }

    /// The content octets (without tag and length), as MSE:Set AT's tag 80 and the
    /// authentication token's tag 06 carry them.
    public var derValue: [UInt8] {
        guard components.count >= 2 else { return [] }
        var out: [UInt8] = []
        let arcs = [components[0] * 40 + components[1]] + components.dropFirst(2)
        for arc in arcs {
            var chunk: [UInt8] = [UInt8(arc & 0x7F)]
            var rest = arc >> 7
            while rest != 0 {
                chunk.insert(UInt8(rest & 0x7F) | 0x80, at: 0)
                rest >>= 7
            }
            out += chunk
        }
        return out
    }

    /// The complete DER encoding (06 length content).
    public var der: [UInt8] { tlv.bytes }

    public var tlv: TLV { TLV(tag: 0x06, value: derValue) }

    public var dotted: String { components.map(String.init).joined(separator: ".") }

    public var description: String { name.map { "\($0) (\(dotted))" } ?? dotted }

    /// The specification's name for this identifier, if it is one of the known ones.
    public var name: String? { OID.names[self] }

    /// Whether `prefix`'s arcs are the first arcs of this identifier (or all of them).
    public func hasPrefix(_ prefix: OID) -> Bool {
        components.count >= prefix.components.count
            && Array(components.prefix(prefix.components.count)) == prefix.components
    }

    /// This identifier with `arcs` appended.
    public func appending(_ arcs: UInt64...) -> OID { OID(components + arcs) }
}

extension OID {
    /// bsi-de: 0.4.0.127.0.7 (BSI TR-03110-3, A.1).
    public static let bsiDE = OID([0, 4, 0, 127, 0, 7])
    /// id-PK (public keys in ChipAuthenticationPublicKeyInfo): bsi-de 2 2 1.
    public static let idPK = bsiDE.appending(2, 2, 1)
    public static let idPKDH = idPK.appending(1)
    public static let idPKECDH = idPK.appending(2)
    /// id-TA: bsi-de 2 2 2.
    public static let idTA = bsiDE.appending(2, 2, 2)
    /// id-CA: bsi-de 2 2 3.
    public static let idCA = bsiDE.appending(2, 2, 3)
    /// id-PACE: bsi-de 2 2 4.
    public static let idPACE = bsiDE.appending(2, 2, 4)
    /// id-RI: bsi-de 2 2 5.
    public static let idRI = bsiDE.appending(2, 2, 5)
    /// id-CI (CardInfoLocator): bsi-de 2 2 6.
    public static let idCI = bsiDE.appending(2, 2, 6)
    /// id-eIDSecurity: bsi-de 2 2 7.
    public static let idEIDSecurity = bsiDE.appending(2, 2, 7)
    /// id-PT (PrivilegedTerminalInfo): bsi-de 2 2 8.
    public static let idPT = bsiDE.appending(2, 2, 8)
    /// id-PS (Pseudonymous Signatures): bsi-de 2 2 11.
    public static let idPS = bsiDE.appending(2, 2, 11)
    /// standardizedDomainParameters: bsi-de 1 2 (TR-03110-3, A.2.1.1).
    public static let standardizedDomainParameters = bsiDE.appending(1, 2)
    /// id-SecurityObject, the eContentType of EF.CardSecurity: bsi-de 3 2 1.
    public static let idSecurityObject = bsiDE.appending(3, 2, 1)
    /// id-roles (CHAT terminal types): bsi-de 3 1 2.
    public static let idRoles = bsiDE.appending(3, 1, 2)
    public static let idIS = idRoles.appending(1)
    public static let idAT = idRoles.appending(2)
    public static let idST = idRoles.appending(3)
    /// id-extensions of CV certificates: bsi-de 3 1 3.
    public static let idExtensions = bsiDE.appending(3, 1, 3)
    /// id-AuxiliaryData: bsi-de 3 1 4.
    public static let idAuxiliaryData = bsiDE.appending(3, 1, 4)
    /// ecPublicKey (ANSI X9.62): 1.2.840.10045.2.1.
    public static let ecPublicKey = OID([1, 2, 840, 10045, 2, 1])
    /// dhpublicnumber (ANSI X9.42): 1.2.840.10046.2.1.
    public static let dhPublicNumber = OID([1, 2, 840, 10046, 2, 1])
    /// CMS signedData: 1.2.840.113549.1.7.2.
    public static let signedData = OID([1, 2, 840, 113549, 1, 7, 2])

    /// Every identifier this module can name, with the names the specifications use.
    public static let names: [OID: String] = {
        var n: [OID: String] = [
            bsiDE: "bsi-de", idPK: "id-PK", idPKDH: "id-PK-DH", idPKECDH: "id-PK-ECDH", idTA: "id-TA",
            idCA: "id-CA", idPACE: "id-PACE", idRI: "id-RI", idCI: "id-CI", idEIDSecurity: "id-eIDSecurity",
            idPT: "id-PT", idPS: "id-PS", standardizedDomainParameters: "standardizedDomainParameters",
            idSecurityObject: "id-SecurityObject", idRoles: "id-roles", idIS: "id-IS", idAT: "id-AT", idST: "id-ST",
            idExtensions: "id-extensions", idExtensions.appending(1): "id-description",
            idExtensions.appending(2): "id-sector", idAuxiliaryData: "id-AuxiliaryData",
            idAuxiliaryData.appending(1): "id-DateOfBirth", idAuxiliaryData.appending(2): "id-DateOfExpiry",
            idAuxiliaryData.appending(3): "id-CommunityID", ecPublicKey: "ecPublicKey",
            dhPublicNumber: "dhpublicnumber", signedData: "signedData",
            idPS.appending(1, 2, 3): "id-PSA-ECDH-ECSchnorr-SHA-256",
        ]
        let ciphers: [(UInt64, String)] = [
            (1, "3DES-CBC-CBC"), (2, "AES-CBC-CMAC-128"), (3, "AES-CBC-CMAC-192"), (4, "AES-CBC-CMAC-256"),
        ]
        let paceMappings: [(UInt64, String)] = [
            (1, "DH-GM"), (2, "ECDH-GM"), (3, "DH-IM"), (4, "ECDH-IM"), (6, "ECDH-CAM"),
        ]
        for (m, mName) in paceMappings {
            n[idPACE.appending(m)] = "id-PACE-\(mName)"
            for (c, cName) in ciphers where !(m == 6 && c == 1) {
                n[idPACE.appending(m, c)] = "id-PACE-\(mName)-\(cName)"
            }
        }
        for (a, aName) in [(UInt64(1), "DH"), (2, "ECDH")] {
            n[idCA.appending(a)] = "id-CA-\(aName)"
            for (c, cName) in ciphers { n[idCA.appending(a, c)] = "id-CA-\(aName)-\(cName)" }
            n[idRI.appending(a)] = "id-RI-\(aName)"
            for (h, hName) in [(UInt64(1), "SHA-1"), (2, "SHA-224"), (3, "SHA-256"), (4, "SHA-384"), (5, "SHA-512")] {
                n[idRI.appending(a, h)] = "id-RI-\(aName)-\(hName)"
            }
        }
        let taRSA = ["v1-5-SHA-1", "v1-5-SHA-256", "PSS-SHA-1", "PSS-SHA-256", "v1-5-SHA-512", "PSS-SHA-512"]
        n[idTA.appending(1)] = "id-TA-RSA"
        for (i, s) in taRSA.enumerated() { n[idTA.appending(1, UInt64(i + 1))] = "id-TA-RSA-\(s)" }
        n[idTA.appending(2)] = "id-TA-ECDSA"
        for (i, s) in ["SHA-1", "SHA-224", "SHA-256", "SHA-384", "SHA-512"].enumerated() {
            n[idTA.appending(2, UInt64(i + 1))] = "id-TA-ECDSA-\(s)"
        }
        return n
    }()
}
