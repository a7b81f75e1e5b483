import Foundation
import Online

/// The faults of TR-03124-2 B_11 to B_15: EAC1InputType or EAC2InputType with a mandatory element
/// left out or a single element twice. The typed messages cannot say that, so the encoded XML is
/// edited: the element's first occurrence (with whatever prefix) is cut out or written twice. A
/// conforming client refuses the message: one it cannot parse as it cannot answer it (as with
/// `broken_xml`), so the session ends with the fault; EAC1 without a description parses, the client
/// refuses it at its certificate check and reports the error, which ends the session
/// (`client_reported_error`).
extension EIDServerSession {
    /// What the fault does to the message: the element's local name and whether it goes (all of
    /// its occurrences) or comes twice.
    private static func edit(for fault: ServerFault) -> (element: String, removes: Bool)? {
        switch fault {
        case .eac1NoCertificate: return ("Certificate", true)
        case .eac1NoDescription: return ("CertificateDescription", true)
        case .eac1TwoDescriptions: return ("CertificateDescription", false)
        case .eac2NoEphemeralKey: return ("EphemeralPublicKey", true)
        case .eac2TwoEphemeralKeys: return ("EphemeralPublicKey", false)
        default: return nil
        }
    }

    /// The edited reply when one of the faults applies to `message` (DIDAuthenticate with EAC1 or
    /// EAC2), after which the session has ended unless the client can answer it; nil otherwise.
    mutating func elementFault(in message: PAOSMessage, _ envelope: PAOSEnvelope) -> PAOSReply? {
        guard case .didAuthenticate(let authenticate) = message else { return nil }
        let candidates: [ServerFault]
        switch authenticate.data {
        case .eac1: candidates = [.eac1NoCertificate, .eac1NoDescription, .eac1TwoDescriptions]
        case .eac2: candidates = [.eac2NoEphemeralKey, .eac2TwoEphemeralKeys]
        case .eacAdditional: return nil
        }
        guard let fault = configuration.faults.first(of: candidates), let edit = Self.edit(for: fault) else {
            return nil
        }
        let text = String(decoding: envelope.encoded(), as: UTF8.self)
        let name = NSRegularExpression.escapedPattern(for: edit.element)
        guard
            let pattern = try? NSRegularExpression(
                pattern: "<([A-Za-z0-9_]+:)?\(name)>[^<]*</([A-Za-z0-9_]+:)?\(name)>")
        else { return nil }
        let whole = NSRange(text.startIndex..., in: text)
        let edited: String
        if edit.removes {
            edited = pattern.stringByReplacingMatches(in: text, range: whole, withTemplate: "")
        } else if let first = pattern.firstMatch(in: text, range: whole), let range = Range(first.range, in: text) {
            edited = text.replacingCharacters(in: range, with: String(text[range]) + String(text[range]))
        } else {
            return nil
        }
        if fault != .eac1NoDescription { finish(failure: .injected(fault)) }
        return .malformed(Array(edited.utf8))
    }
}
