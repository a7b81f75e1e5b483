import EAC
import SDK
import SmartCard
import Workflows

/// What a person sees of an authentication, at the terminal or through a pinentry program:
/// before any card access it shows who asks (the certificate description: subject, issuer,
/// purpose, terms, validity) and the data requested, as AusweisApp words and orders it,
/// required and optional; drops the optional rights `--deny` names; asks whether to proceed
/// (the terminal's "Proceed? [y/N]", pinentry's CONFIRM; not with `--yes`); then the PIN, CAN
/// and PUK as `change-pin` asks them; at the end the outcome in one sentence (`AuthFace` adds
/// the refresh URL).
///
/// It answers the workflow's ACCESS_RIGHTS itself (GET_CERTIFICATE, SET_ACCESS_RIGHTS, ACCEPT or
/// CANCEL) and hands everything else to the terminal face.
final class AuthReviewPeer: SDKPeer {
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
    private let person: any SecretAsker
    private let console: Console
    private let yes: Bool
    private let deny: [String]
    private var review = Review.waiting
    private var rights: AccessRightsInfo?
    private var certificate: CertificateInfo?
    /// What the question is about, in short: the service, its purpose, the data (a pinentry
    /// dialog shows it; the terminal has shown all of it above the question).
    private var request: [String] = []
    /// A `--deny` named a required right: the user does not want what the service needs.
    private(set) var deniedRequired: [String] = []

    init(inner: FacePeer, person: any SecretAsker, console: Console, yes: Bool, deny: [String]) {
        self.inner = inner
        self.person = person
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
            request = (certificate.map(Self.summary) ?? []) + Self.describe(rights)
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
                return .command(.setAccessRights(.entries(keep)))
            }
            return nextCommand(timeout: timeout)
        case .needConfirmation:
            review = .done
            if yes { return .command(.accept) }
            return person.confirm(request: request, timeout: timeout)
        }
    }

    var isCancelled: Bool { inner.isCancelled }

    /// AusweisApp's words for an SDK right name (the name itself when unknown).
    static func words(_ sdkName: String) -> String { AccessRight.displayText(sdkName: sdkName) }

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

    /// The service and its purpose, for a dialog with little room.
    static func summary(_ c: CertificateInfo) -> [String] {
        var lines = ["Service: \(c.subjectName)" + (c.subjectUrl.map { " (\($0))" } ?? "")]
        if let purpose = c.purpose, !purpose.isEmpty { lines.append("Purpose: \(purpose)") }
        return lines
    }

    static func describe(_ r: AccessRightsInfo) -> [String] {
        // AusweisApp's words and order; rights that change the card under a heading of their own.
        // `effective` is what the card will grant: a right the service's certificates lack is not shared.
        func line(_ name: String, _ kind: String) -> String {
            "  \(words(name)) (\(kind)\(r.effective.contains(name) ? "" : ", not shared"))"
        }
        let isWrite = { (name: String) in AccessRight(sdkName: name)?.isWriteRight == true }
        let required = AccessRight.displayOrdered(r.required)
        let optional = AccessRight.displayOrdered(r.optional)
        var lines = ["The service asks to read:"]
        lines += required.filter { !isWrite($0) }.map { line($0, "required") }
        lines += optional.filter { !isWrite($0) }.map { line($0, "optional") }
        let writes =
            required.filter(isWrite).map { line($0, "required") }
            + optional.filter(isWrite).map { line($0, "optional") }
        if !writes.isEmpty { lines += ["The service asks to change on the card:"] + writes }
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
