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
        var edited = envelope.encoded()
        for element in edit.elements {
            guard let next = Self.edited(edited, element: Array(element.utf8), removes: edit.removes) else {
                return nil
            }
            edited = next
        }
        if fault != .eac1NoDescription && !fault.clientSucceeds { finish(failure: .injected(fault)) }
        return .malformed(edited)
    }

    /// `xml` with every `<element>text</element>` (any prefix on either tag, text without markup)
    /// cut out, or its first one written twice; nil when there is none to double. A scan of the
    /// bytes, not a regular expression: NSRegularExpression would bring Foundation with ICU (tens
    /// of MiB) into eid-testserver.
    private static func edited(_ xml: [UInt8], element: [UInt8], removes: Bool) -> [UInt8]? {
        var matches: [Range<Int>] = []
        var index = 0
        while index < xml.count {
            guard xml[index] == UInt8(ascii: "<"), let open = tagEnd(xml, at: index + 1, element: element),
                let close = xml[open...].firstIndex(of: UInt8(ascii: "<")), close + 1 < xml.count,
                xml[close + 1] == UInt8(ascii: "/"), let end = tagEnd(xml, at: close + 2, element: element)
            else {
                index += 1
                continue
            }
            matches.append(index..<end)
            index = end
        }
        guard let first = matches.first else { return removes ? xml : nil }
        if !removes { return Array(xml[..<first.upperBound] + xml[first] + xml[first.upperBound...]) }
        var result = xml
        for match in matches.reversed() { result.removeSubrange(match) }
        return result
    }

    /// At `start`, just after `<` or `</`: an optional `prefix:`, `element` and `>`; the index after `>`.
    private static func tagEnd(_ xml: [UInt8], at start: Int, element: [UInt8]) -> Int? {
        func isNameByte(_ byte: UInt8) -> Bool {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"):
                return true
            default: return false
            }
        }
        var name = start
        while name < xml.count, isNameByte(xml[name]) { name += 1 }
        name = name < xml.count && xml[name] == UInt8(ascii: ":") && name > start ? name + 1 : start
        let end = name + element.count
        guard end < xml.count, xml[name..<end].elementsEqual(element), xml[end] == UInt8(ascii: ">") else { return nil }
        return end + 1
    }
}
