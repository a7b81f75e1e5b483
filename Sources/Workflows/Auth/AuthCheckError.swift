import EAC
import Online

/// Why the eID server's terminal (EAC1InputType) is refused before any card access: the
/// TR-03124 checks that need no network (docs/protocol.md, "Checks of EAC1").
/// Each case has AusweisApp's FailureCode name and the result AusweisApp gives for it.
public enum AuthCheckError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Not exactly one DV certificate among the EAC1 certificates.
    case noUniqueDocumentVerifier(count: Int)
    /// Not exactly one authentication terminal certificate among them.
    case noUniqueTerminal(count: Int)
    /// A certificate of EAC1 is not a CV certificate eid reads.
    case malformedCertificate(CVCertificateError)
    /// The chain does not lead to a trusted CVCA, or a signature, date or role is wrong.
    case preVerificationFailed(CVCertificateChainError)
    /// No certificate description, or one that does not decode.
    case noDescription
    /// The description has no subjectURL.
    case noSubjectURL
    /// The hash of the description is not the terminal certificate's id-description hash.
    case descriptionHashMismatch
    /// subjectURL and tcTokenURL are not the same origin.
    case sameOriginPolicyViolation
    /// A TLS server certificate's hash is not among the description's CommCertificates.
    case certificateHashNotInDescription
    /// RequiredCHAT or OptionalCHAT does not decode as an authentication terminal's CHAT.
    case malformedCHAT
    /// RequiredCHAT asks for a right the terminal certificate does not grant.
    case requiredCHATExceedsTerminal
    /// The authenticated auxiliary data do not decode.
    case malformedAuxiliaryData
    /// The authenticated auxiliary data are longer than `AuthenticatedAuxiliaryData.maximumLength`.
    case auxiliaryDataTooLong(count: Int)

    /// AusweisApp's FailureCode name (eid's own, in its spelling, where AusweisApp has none).
    public var name: String {
        switch self {
        case .noUniqueDocumentVerifier: return "Workflow_No_Unique_DvCvc"
        case .noUniqueTerminal: return "Workflow_No_Unique_AtCvc"
        case .malformedCertificate: return "Workflow_Invalid_Certificate_Format"
        case .preVerificationFailed(let error):
            switch error {
            case .expired, .notYetValid: return "Pre_Verification_Certificate_Expired"
            case .invalidSignature: return "Pre_Verification_Invalid_Certificate_Signature"
            default: return "Pre_Verification_Invalid_Certificate_Chain"
            }
        case .noDescription: return "Certificate_Check_Failed_No_Description"
        case .noSubjectURL: return "Certificate_Check_Failed_No_SubjectUrl_In_Description"
        case .descriptionHashMismatch: return "Certificate_Check_Failed_Hash_Mismatch"
        case .sameOriginPolicyViolation: return "Certificate_Check_Failed_Same_Origin_Policy_Violation"
        case .certificateHashNotInDescription: return "Certificate_Check_Failed_Hash_Missing_In_Description"
        case .malformedCHAT: return "Workflow_Invalid_Chat"
        case .requiredCHATExceedsTerminal: return "Workflow_Required_Chat_Exceeds_Terminal"
        case .malformedAuxiliaryData, .auxiliaryDataTooLong: return "Workflow_Invalid_Auxiliary_Data"
        }
    }

    /// The result AusweisApp reports (docs/protocol.md, "How AusweisApp reports each failure").
    public var result: ECardAPIResult {
        switch self {
        case .noUniqueDocumentVerifier, .noUniqueTerminal, .malformedCertificate, .preVerificationFailed:
            return .error(.invalidCertificatePath)
        case .noDescription, .noSubjectURL, .descriptionHashMismatch, .sameOriginPolicyViolation, .malformedCHAT,
            .requiredCHATExceedsTerminal, .malformedAuxiliaryData, .auxiliaryDataTooLong:
            return .error(.parameterError)
        case .certificateHashNotInDescription: return .error(.trustedChannelEstablishmentFailed)
        }
    }

    public var description: String {
        switch self {
        case .noUniqueDocumentVerifier(let n): return "the eID server sent \(n) DV certificates, not exactly one"
        case .noUniqueTerminal(let n): return "the eID server sent \(n) terminal certificates, not exactly one"
        case .malformedCertificate(let e): return "a certificate of the eID server is malformed: \(e)"
        case .preVerificationFailed(let e): return "the service's certificate chain is not trusted: \(e)"
        case .noDescription: return "the eID server sent no usable certificate description"
        case .noSubjectURL: return "the certificate description names no subject URL"
        case .descriptionHashMismatch: return "the certificate description does not match the terminal certificate"
        case .sameOriginPolicyViolation: return "the service's address is not the origin of the tcTokenURL"
        case .certificateHashNotInDescription:
            return "a TLS certificate of the service is not listed in its certificate description"
        case .malformedCHAT: return "the requested access rights are malformed"
        case .requiredCHATExceedsTerminal:
            return "the service requires access rights its terminal certificate does not grant"
        case .malformedAuxiliaryData: return "the service's auxiliary data are malformed"
        case .auxiliaryDataTooLong(let count):
            return "the service's auxiliary data are \(count) bytes long, more than the "
                + "\(AuthenticatedAuxiliaryData.maximumLength) an age, validity and community ID check need"
        }
    }
}
