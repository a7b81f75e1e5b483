import EAC
import EIDCrypto
import SmartCard
import TestVectors
import Testing

@Suite("CV certificates: the published chains (cvc_chain.json, BSI worked example)")
struct CVCertificateTests {
    @Test(arguments: CVCVector.names)
    func parsesAndReencodesByteForByte(name: String) throws {
        let vector = try CVCVector(name)
        for certificate in vector.certificates {
            let parsed = try CVCertificate(encoded: certificate.hex)
            #expect(try parsed.encoded == certificate.hex)
            #expect(try parsed.body.encoded == certificate.body)
            #expect(parsed.signature == certificate.signature)
            #expect(try CVCertificate(bodyAndSignature: try parsed.bodyAndSignature) == parsed)
            #expect(try CVCertificateBody(encoded: certificate.body) == parsed.body)
        }
    }

    @Test(arguments: CVCVector.names)
    func decodedFieldsEqualTheVector(name: String) throws {
        let vector = try CVCVector(name)
        for (certificate, expected) in zip(try vector.parsed(), vector.certificates.map(\.fields)) {
            let body = certificate.body
            #expect(Int(body.profileIdentifier) == expected["cpi"] as? Int)
            #expect(body.authorityReference == expected["car"] as? String)
            #expect(body.holderReference == expected["chr"] as? String)
            #expect(body.effectiveDate.iso8601 == expected["effective_date"] as? String)
            #expect(body.expirationDate.iso8601 == expected["expiration_date"] as? String)
            let key = expected["public_key"] as? [String: Any] ?? [:]
            #expect(body.publicKey.algorithm.objectIdentifier.dotted == key["oid"] as? String)
            #expect(body.publicKey.algorithm.objectIdentifier.name == key["oid_name"] as? String)
            #expect(body.publicKey.publicPoint == (try hex(key["public_point_86"] as? String ?? "")))
            #expect((body.publicKey.domainParameters != nil) == key["has_domain_parameters"] as? Bool)

            let chat = expected["chat"] as? [String: Any] ?? [:]
            #expect(body.chat.terminalType.objectIdentifier.dotted == chat["oid"] as? String)
            #expect(body.chat.relativeAuthorization == (try hex(chat["template_53"] as? String ?? "")))
            let roles: [String: CertificateRole] = [
                "CVCA": .cvca, "DV (official domestic)": .dvOfficialDomestic,
                "DV (non-official / foreign)": .dvNonOfficialForeign, "Terminal (AT/IS/ST)": .terminal,
            ]
            #expect(body.chat.role == roles[chat["role"] as? String ?? ""])
            if body.chat.terminalType == .authenticationTerminal {
                let names = chat["access_rights"] as? [String] ?? []
                let rights = Set(names.compactMap(AccessRight.init(vectorName:)))
                #expect(rights.count == names.count, "every right of the vector has a name here")
                #expect(body.chat.accessRights == rights)
            }

            let extensions = expected["extensions"] as? [[String: Any]] ?? []
            #expect((body.extensions ?? []).count == extensions.count)
            for (ext, want) in zip(body.extensions ?? [], extensions) {
                #expect(ext.identifier.dotted == want["oid"] as? String)
                let objects = want["objects"] as? [[String: String]] ?? []
                #expect(ext.objects.map { String($0.tag, radix: 16) } == objects.map { $0["tag"] ?? "" })
                #expect(try ext.objects.map(\.value) == objects.map { try hex($0["value"] ?? "") })
            }
        }
    }

    @Test(arguments: CVCVector.names)
    func chainVerifiesFromItsRoot(name: String) throws {
        let vector = try CVCVector(name)
        let certificates = try vector.parsed()
        let terminal = certificates.last!
        let chain = try CVCertificateChain(
            target: terminal, pool: Array(certificates.dropFirst().dropLast()).reversed(),
            trustAnchors: [certificates[0]], date: vector.validationDate)
        #expect(chain.certificates == certificates)
        #expect(chain.target.role == .terminal)
        // Also verified as an ordered list, and every signature on its own.
        _ = try CVCertificateChain(verifying: certificates, date: vector.validationDate)
        let terminalKey = try chain.targetKey()
        #expect(terminalKey.encoded == terminal.body.publicKey.publicPoint)
        // The terminal's effective rights are within its DV's.
        #expect(chain.effectiveCHAT.isWithin(certificates[certificates.count - 2].body.chat))
    }

    @Test func selfSignedRootsVerifyWithTheirOwnKey() throws {
        for name in CVCVector.names {
            let root = try CVCVector(name).parsed()[0]
            #expect(root.body.isSelfSigned)
            let key = try root.body.publicKey.point(inheriting: nil)
            #expect(try root.isSigned(by: key, algorithm: root.body.publicKey.algorithm))
        }
    }

    @Test func certificateDescriptionHashAndFields() throws {
        let vector = try CVCVector("detesteid_eac1")
        let bytes = try hex(vector.values["certificate_description"] as? String ?? "")
        let description = try CertificateDescription(encoded: bytes)
        let terminal = try vector.parsed().last!
        #expect(try description.matches(terminal))
        #expect(
            terminal.body.descriptionHash == (try hex(vector.values["certificate_description_sha256"] as? String ?? ""))
        )
        let decoded = vector.values["certificate_description_decoded"] as? [String: Any] ?? [:]
        #expect(description.termsOfUsage.descriptionType.dotted == decoded["descriptionType"] as? String)
        #expect(description.issuerName == decoded["issuerName"] as? String)
        #expect(description.issuerURL == decoded["issuerURL"] as? String)
        #expect(description.subjectName == decoded["subjectName"] as? String)
        #expect(description.subjectURL == decoded["subjectURL"] as? String)
        #expect(description.termsOfUsage == .plainText(decoded["termsOfUsage"] as? String ?? ""))
        #expect(description.redirectURL == nil)
        #expect(
            try description.commCertificates == (decoded["commCertificates"] as? [String] ?? []).map { try hex($0) })
        // Re-encoded from its fields: the same bytes.
        let rebuilt = try CertificateDescription(
            issuerName: description.issuerName, issuerURL: description.issuerURL, subjectName: description.subjectName,
            subjectURL: description.subjectURL, termsOfUsage: description.termsOfUsage,
            redirectURL: description.redirectURL, commCertificates: description.commCertificates)
        #expect(rebuilt.encoded == bytes)
        // Another description (one byte changed) does not match the terminal's hash.
        var changed = bytes
        changed[changed.count - 1] ^= 0x01
        #expect(try !CertificateDescription(encoded: changed).matches(terminal))
    }

    @Test func bsiWorkedExampleChainIsTheOneOfTheVector() throws {
        let v = try Fixture.hexValues("eac_worked_example_bsi_ecdh")
        let chain = try ["cvca_cert", "dv_cert", "terminal_cert"].map { try CVCertificate(encoded: try v.bytes($0)) }
        #expect(try chain.map { try $0.encoded } == CVCVector("bsi_worked_example_p512").certificates.map(\.hex))
        let verified = try CVCertificateChain(verifying: chain, date: CalendarDate(year: 2010, month: 10, day: 1)!)
        #expect(try verified.targetKey().group.curve == .brainpoolP512r1)
        #expect(chain.map(\.body.publicKey.algorithm) == [.ecdsaSHA512, .ecdsaSHA512, .ecdsaSHA512])
        #expect(chain[0].body.chat.terminalType == .inspectionSystem)
        #expect(chain[2].body.chat.accessRights == [.readDG1, .canAllowed])
    }
}
