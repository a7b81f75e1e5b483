import EAC
import EIDCrypto
import Online
import SDK

/// The eID server's terminal after the TR-03124 checks of EAC1 that need no network
/// (AusweisApp's StateExtractCvcsFromEac1InputType, StatePreVerification,
/// StateCertificateDescriptionCheck, StateCheckCertificates), in that order:
///
/// 1. exactly one DV and one authentication terminal certificate;
/// 2. the chain from a trusted CVCA (through link certificates among the EAC1 certificates and
///    `linkCertificates`, e.g. `GermanEIDPKI`'s) to the terminal verifies: signatures, roles, and
///    dates from the last CVCA on (`date`); a terminal CHAT beyond its DV's is not fatal (as in
///    AusweisApp): the shown effective rights are limited to the chain's;
/// 3. a certificate description with a subjectURL whose hash (the terminal key's hash) is the
///    terminal certificate's id-description;
/// 4. subjectURL and tcTokenURL are the same origin;
/// 5. every TLS server certificate seen hashes (the DV key's hash) into CommCertificates;
/// 6. RequiredCHAT within the terminal certificate's CHAT; the access rights of docs/protocol.md,
///    "Effective authorization";
/// 7. authenticated auxiliary data of at most `AuthenticatedAuxiliaryData.maximumLength` bytes that decode.
public struct TerminalCheck: Equatable, Sendable {
    public let chain: CVCertificateChain
    public let documentVerifier: CVCertificate
    public let terminal: CVCertificate
    public let description: CertificateDescription
    public let accessRights: AccessRightsRequest
    public let auxiliaryData: AuthenticatedAuxiliaryData?
    public let transactionInfo: String?
    /// The CVCA link certificates among EAC1's and the built-in ones (`cardChain`).
    public let linkCertificates: [CVCertificate]

    public init(
        _ input: EAC1InputType, tcTokenURL: String, trustAnchors: [CVCertificate],
        linkCertificates: [CVCertificate] = [], date: CalendarDate, tlsCertificates: [[UInt8]]
    ) throws(AuthCheckError) {
        var certificates: [CVCertificate] = []
        for bytes in input.certificates {
            do { certificates.append(try CVCertificate(encoded: bytes)) } catch let e as CVCertificateError {
                throw .malformedCertificate(e)
            } catch { throw .malformedCertificate(.truncated(inside: 0)) }
        }
        let dvs = certificates.filter { $0.role.isDocumentVerifier }
        guard dvs.count == 1, let dv = dvs.first else { throw .noUniqueDocumentVerifier(count: dvs.count) }
        let terminals = certificates.filter {
            $0.role == .terminal && $0.body.chat.terminalType == .authenticationTerminal
        }
        guard terminals.count == 1, let terminal = terminals.first else {
            throw .noUniqueTerminal(count: terminals.count)
        }
        do {
            chain = try CVCertificateChain(
                target: terminal, pool: certificates.filter { $0 != terminal } + linkCertificates,
                trustAnchors: trustAnchors, date: date)
        } catch let e as CVCertificateChainError {
            throw .preVerificationFailed(e)
        } catch {
            throw .preVerificationFailed(.unknownAuthority(car: terminal.body.authorityReference, of: ""))
        }
        guard chain.certificates.contains(dv) else {
            throw .preVerificationFailed(
                .unknownAuthority(car: dv.body.holderReference, of: terminal.body.holderReference))
        }

        guard let encodedDescription = input.certificateDescription,
            let description = try? CertificateDescription(encoded: encodedDescription)
        else { throw .noDescription }
        guard let subjectURL = description.subjectURL else { throw .noSubjectURL }
        guard (try? description.matches(terminal)) == true else { throw .descriptionHashMismatch }
        guard WebOrigin.isSameOrigin(subjectURL, tcTokenURL) else { throw .sameOriginPolicyViolation }
        let digest = dv.body.publicKey.algorithm.digest
        let listed = description.commCertificates ?? []
        for certificate in tlsCertificates {
            guard let hash = try? digest.hash(certificate), listed.contains(hash) else {
                throw .certificateHashNotInDescription
            }
        }

        func chat(_ bytes: [UInt8]?) throws(AuthCheckError) -> CHAT? {
            guard let bytes else { return nil }
            guard let chat = try? CHAT(encoded: bytes), chat.terminalType == .authenticationTerminal else {
                throw .malformedCHAT
            }
            return chat
        }
        accessRights = try AccessRightsRequest(
            terminal: terminal.body.chat, documentVerifierRole: dv.role, requiredCHAT: try chat(input.requiredCHAT),
            optionalCHAT: try chat(input.optionalCHAT), chain: chain.effectiveCHAT)
        if let aux = input.authenticatedAuxiliaryData {
            guard aux.count <= AuthenticatedAuxiliaryData.maximumLength else {
                throw .auxiliaryDataTooLong(count: aux.count)
            }
            guard let decoded = try? AuthenticatedAuxiliaryData(encoded: aux) else { throw .malformedAuxiliaryData }
            auxiliaryData = decoded
        } else {
            auxiliaryData = nil
        }
        documentVerifier = dv
        self.linkCertificates = (certificates + linkCertificates).filter {
            $0.role == .cvca && !$0.body.isSelfSigned
        }
        self.terminal = terminal
        self.description = description
        transactionInfo = input.transactionInfo
    }

    /// The length of a TA signature by the terminal's key: a plain ECDSA signature r ‖ s
    /// (TR-03111, 5.2.1) is twice the field size of the chain's curve. nil when the curve is not
    /// one eid knows (the chain check has then refused it already).
    public var signatureLength: Int? {
        guard let curve = try? chain.domainParameters.curve(), let group = try? ECGroup(curve) else { return nil }
        return 2 * group.fieldSize
    }

    /// The ACCESS_RIGHTS message for the rights as they stand.
    public func accessRightsInfo(_ rights: AccessRightsRequest, error: String? = nil, today: CalendarDate)
        -> AccessRightsInfo
    {
        var aux: AuxiliaryDataInfo?
        if let data = auxiliaryData {
            var info = AuxiliaryDataInfo()
            if let date = data.ageVerificationDate {
                info.ageVerificationDate = date.iso8601
                var age = today.year - date.year
                if (today.month, today.day) < (date.month, date.day) { age -= 1 }
                info.requiredAge = String(age)
            }
            info.validityDate = data.documentValidityDate?.iso8601
            info.communityId = data.communityID.map {
                $0.map { String($0 >> 4, radix: 16) + String($0 & 0xF, radix: 16) }.joined()
            }
            aux = info
        }
        return AccessRightsInfo(
            error: error, aux: aux, effective: AccessRightsRequest.sdkNames(rights.granted),
            optional: AccessRightsRequest.sdkNames(rights.optional),
            required: AccessRightsRequest.sdkNames(rights.required),
            transactionInfo: transactionInfo)
    }

    /// The CERTIFICATE message.
    /// Step 5 for every later TLS handshake (AusweisApp's `CertificateChecker` on each connection after
    /// EAC1): whether a server certificate (DER) hashes, with the DV key's hash, into CommCertificates.
    public var acceptsServerCertificate: @Sendable ([UInt8]) -> Bool {
        let digest = documentVerifier.body.publicKey.algorithm.digest
        let listed = description.commCertificates ?? []
        return { certificate in
            guard let hash = try? digest.hash(certificate) else { return false }
            return listed.contains(hash)
        }
    }

    public var certificateInfo: CertificateInfo {
        let terms: String
        switch description.termsOfUsage {
        case .plainText(let text), .html(let text): terms = text
        case .pdf: terms = ""
        }
        return CertificateInfo(
            issuerName: description.issuerName, issuerUrl: description.issuerURL, subjectName: description.subjectName,
            subjectUrl: description.subjectURL, termsOfUsage: terms, purpose: nil,
            effectiveDate: terminal.body.effectiveDate.iso8601, expirationDate: terminal.body.expirationDate.iso8601)
    }
}
