import EAC
import SDK
import SmartCard
import Workflows

/// The terminal face of an authentication: before any card access it shows who asks (the
/// certificate description: subject, issuer, purpose, terms, validity) and the data requested
/// in TR-03127 words, required and optional; drops the optional rights `--deny` names; asks
/// "Proceed? [y/N]" (unless `--yes`); then the PIN, CAN and PUK prompts as `change-pin` has
/// them; at the end the outcome in one sentence (`AuthFace` adds the refresh URL).
///
/// It answers the workflow's ACCESS_RIGHTS itself (GET_CERTIFICATE, SET_ACCESS_RIGHTS, ACCEPT or
/// CANCEL) and hands everything else to the terminal face.
final class AuthTerminalPeer: SDKPeer {
    private enum Review {
        /// No ACCESS_RIGHTS yet.
        case waiting
        /// ACCESS_RIGHTS came: fetch the certificate description.
        case needCertificate
        /// The description came: show the request, then drop the denied rights.
        case needSelection
        /// Ask to proceed.
        case needConfirmation
        case done
    }

    private let inner: FacePeer
    private let terminal: TerminalInput
    private let console: Console
    private let yes: Bool
    private let deny: [String]
    private var review = Review.waiting
    private var rights: AccessRightsInfo?
    private var certificate: CertificateInfo?
    /// A `--deny` named a required right: the user does not want what the service needs.
    private(set) var deniedRequired: [String] = []

    init(inner: FacePeer, terminal: TerminalInput, console: Console, yes: Bool, deny: [String]) {
        self.inner = inner
        self.terminal = terminal
        self.console = console
        self.yes = yes
        self.deny = deny
    }

    func send(_ message: SDKMessage) {
        switch message {
        case .auth(nil, _):
            console.out("Online authentication with your ID card (Ctrl-C cancels).")
        case .auth(let result?, _):
            // "Continue at" follows from the face: the SDK's url lacks the result parameters.
            console.out(Self.outcome(result, subject: certificate?.subjectName))
        case .accessRights(let info):
            rights = info
            if let error = info.error { console.out("Not accepted: \(error).") }
            if review == .waiting { review = .needCertificate }
        case .certificate(let info):
            certificate = info
        default:
            inner.send(message)
        }
    }

    func nextCommand(timeout: Double) -> PeerInput {
        switch review {
        case .waiting, .done:
            return inner.nextCommand(timeout: timeout)
        case .needCertificate:
            review = .needSelection
            return .command(.getCertificate)
        case .needSelection:
            review = .needConfirmation
            if let certificate { for line in Self.describe(certificate) { console.out(line) } }
            guard let rights else { return .command(.cancel) }
            for line in Self.describe(rights) { console.out(line) }
            deniedRequired = deny.filter { rights.required.contains($0) }
            if !deniedRequired.isEmpty {
                console.out(
                    "The service requires \(deniedRequired.map(Self.words).joined(separator: ", ")), "
                        + "which --deny refuses; nothing is sent.")
                review = .done
                return .command(.cancel)
            }
            for name in deny where !rights.optional.contains(name) {
                console.out("--deny \(name): the service does not ask for it.")
            }
            let keep = rights.optional.filter { !deny.contains($0) }
            if keep.count != rights.optional.count {
                console.out(
                    "Not sent (--deny): \(rights.optional.filter(deny.contains).map(Self.words).joined(separator: ", "))."
                )
                return .command(.setAccessRights(keep))
            }
            return nextCommand(timeout: timeout)
        case .needConfirmation:
            review = .done
            if yes { return .command(.accept) }
            switch terminal.readSecret(prompt: "Proceed? [y/N] ", timeout: timeout, echo: true) {
            case .secret(let answer):
                defer { answer.wipe() }
                let text = answer.withBytes { String(decoding: $0, as: UTF8.self) }.lowercased()
                return text == "y" || text == "yes" ? .command(.accept) : .command(.cancel)
            case .endOfInput, .tooLong: return .command(.cancel)
            case .timedOut: return .timedOut
            case .interrupted: return .command(.cancel)
            }
        }
    }

    var isCancelled: Bool { inner.isCancelled }

    /// The TR-03127 words for an SDK right name (the name itself when unknown).
    static func words(_ sdkName: String) -> String {
        AccessRight(sdkName: sdkName)?.description ?? sdkName
    }

    static func describe(_ c: CertificateInfo) -> [String] {
        var lines = ["Service:   \(c.subjectName)" + (c.subjectUrl.map { " (\($0))" } ?? "")]
        lines.append("Issuer:    \(c.issuerName)" + (c.issuerUrl.map { " (\($0))" } ?? ""))
        if let purpose = c.purpose, !purpose.isEmpty { lines.append("Purpose:   \(purpose)") }
        lines.append("Valid:     \(c.effectiveDate) to \(c.expirationDate)")
        let terms = c.termsOfUsage.split(separator: "\n", omittingEmptySubsequences: false)
        if let first = terms.first, !c.termsOfUsage.isEmpty {
            lines.append("Terms:     \(first)")
            lines += terms.dropFirst().map { "           \($0)" }
        }
        return lines
    }

    static func describe(_ r: AccessRightsInfo) -> [String] {
        var lines = ["The service asks to read:"]
        // `effective` is what the card will grant: a right the service's certificates lack is not shared.
        lines += r.required.map { "  \(words($0)) (required\(r.effective.contains($0) ? "" : ", not shared"))" }
        lines += r.optional.map { "  \(words($0)) (optional\(r.effective.contains($0) ? "" : ", not shared"))" }
        if let age = r.aux?.requiredAge { lines.append("  Age check: at least \(age) years") }
        if let date = r.aux?.validityDate { lines.append("  Validity check: valid on \(date)") }
        if let community = r.aux?.communityId { lines.append("  Place of residence check: \(community)") }
        if let info = r.transactionInfo, !info.isEmpty { lines.append("Transaction: \(info)") }
        return lines
    }

    /// The final AUTH as one sentence.
    static func outcome(_ result: AuthResult, subject: String?) -> String {
        guard result.major.hasSuffix("#ok") else {
            return "Not done: the authentication failed; nothing more was sent."
        }
        return "Done: your data was sent to \(subject ?? "the service")."
    }
}
