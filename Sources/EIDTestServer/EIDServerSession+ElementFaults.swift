import Foundation
import Online

/// The faults of TR-03124-2 B_11 to B_15: EAC1InputType or EAC2InputType with a mandatory element
/// left out or a single element twice; and D_19's EAC1 without its CHATs (`eac1_no_chats`), which
/// a client takes. The typed messages cannot say that, so the encoded XML is
/// edited: the element's first occurrence (with whatever prefix) is cut out or written twice. A
/// conforming client refuses the message: one it cannot parse as it cannot answer it (as with
/// `broken_xml`), so the session ends with the fault; EAC1 without a description parses, the client
/// refuses it at its certificate check and reports the error, which ends the session
/// (`client_reported_error`).
extension EIDServerSession {
    /// What the fault does to the message: the element's local name and whether it goes (all of
    /// its occurrences) or comes twice.
    private static func edit(for fault: ServerFault) -> (elements: [String], removes: Bool)? {
        switch fault {
        case .eac1NoCertificate: return (["Certificate"], true)
        case .eac1NoDescription: return (["CertificateDescription"], true)
        case .eac1TwoDescriptions: return (["CertificateDescription"], false)
        case .eac2NoEphemeralKey: return (["EphemeralPublicKey"], true)
        case .eac2TwoEphemeralKeys: return (["EphemeralPublicKey"], false)
        case .eac1NoCHATs: return (["RequiredCHAT", "OptionalCHAT"], true)
        default: return nil
        }
    }

    /// The edited reply when one of the faults applies to `message` (DIDAuthenticate with EAC1 or
    /// EAC2), after which the session has ended unless the client can answer it; nil otherwise.
    mutating func elementFault(in message: PAOSMessage, _ envelope: PAOSEnvelope) -> PAOSReply? {
        guard case .didAuthenticate(let authenticate) = message else { return nil }
        let candidates: [ServerFault]
        switch authenticate.data {
        case .eac1: candidates = [.eac1NoCertificate, .eac1NoDescription, .eac1TwoDescriptions, .eac1NoCHATs]
        case .eac2: candidates = [.eac2NoEphemeralKey, .eac2TwoEphemeralKeys]
        case .eacAdditional: return nil
        }
        guard let fault = configuration.faults.first(of: candidates), let edit = Self.edit(for: fault) else {
            return nil
        }
        var edited = String(decoding: envelope.encoded(), as: UTF8.self)
        for element in edit.elements {
            guard let next = Self.edited(edited, element: element, removes: edit.removes) else { return nil }
            edited = next
        }
        if fault != .eac1NoDescription && !fault.clientSucceeds { finish(failure: .injected(fault)) }
        return .malformed(Array(edited.utf8))
    }

    /// `text` with every `element` (any prefix) cut out, or its first one written twice; nil when
    /// there is none to double.
    private static func edited(_ text: String, element: String, removes: Bool) -> String? {
        let name = NSRegularExpression.escapedPattern(for: element)
        let prefix = "([A-Za-z0-9_]+:)?"
        guard let pattern = try? NSRegularExpression(pattern: "<\(prefix)\(name)>[^<]*</\(prefix)\(name)>") else {
            return nil
        }
        let whole = NSRange(text.startIndex..., in: text)
        if removes { return pattern.stringByReplacingMatches(in: text, range: whole, withTemplate: "") }
        guard let first = pattern.firstMatch(in: text, range: whole), let range = Range(first.range, in: text) else {
            return nil
        }
        return text.replacingCharacters(in: range, with: String(text[range]) + String(text[range]))
    }
}
