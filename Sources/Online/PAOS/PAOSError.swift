/// Why a PAOS message was refused. Text from the message is never quoted, except the local name
/// of an unknown body element and the code of a SOAP fault, both cut to 64 printable ASCII
/// characters.
public enum PAOSError: Error, Equatable, Sendable {
    /// Not XML eid accepts (not well-formed, a DTD, too large or deep).
    case malformedXML(XMLError)
    /// The root is not a SOAP 1.1 Envelope.
    case notSOAPEnvelope
    /// The envelope has no Body, or more than one.
    case missingBody
    /// The Body does not hold exactly one element.
    case bodyNotOneMessage
    /// The Body holds a SOAP Fault (its faultcode, cut short).
    case soapFault(code: String)
    /// The Body holds an element that is no PAOS message of this profile (its local name).
    case unknownMessage(String)
    /// A mandatory element of `message` is missing.
    case missingElement(message: String, element: String)
    /// An element of `message` that may occur once occurs more than once.
    case duplicateElement(message: String, element: String)
    /// An element of `message` that must be hexadecimal (xsd:hexBinary) is not.
    case invalidHex(message: String, element: String)
    /// An element of `message` has a value outside what this profile allows (an empty APDU, a
    /// challenge that is not 8 bytes, a number that is not one).
    case invalidValue(message: String, element: String)
    /// AuthenticationProtocolData has no xsi:type, or one this profile does not know (EAC1,
    /// EAC2, EACAdditional input and EAC1, EAC2 output).
    case unknownAuthenticationProtocolType
    /// ResultMajor is not ok, warning or error of the eCard-API.
    case unknownResultMajor
}

extension PAOSError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .malformedXML(let error): return "the PAOS message is not usable XML: \(error)"
        case .notSOAPEnvelope: return "the PAOS message is not a SOAP 1.1 envelope"
        case .missingBody: return "the PAOS message has no single SOAP Body"
        case .bodyNotOneMessage: return "the PAOS message's SOAP Body does not hold exactly one message"
        case .soapFault(let code): return "the eID server answered with a SOAP fault (\(code))"
        case .unknownMessage(let name): return "the PAOS message \(name) is not part of online authentication"
        case .missingElement(let message, let element): return "the PAOS message \(message) has no \(element)"
        case .duplicateElement(let message, let element):
            return "the PAOS message \(message) has more than one \(element)"
        case .invalidHex(let message, let element):
            return "the \(element) of the PAOS message \(message) is not hexadecimal"
        case .invalidValue(let message, let element):
            return "the \(element) of the PAOS message \(message) has a value this profile does not allow"
        case .unknownAuthenticationProtocolType:
            return "the PAOS message's AuthenticationProtocolData has no xsi:type this profile knows"
        case .unknownResultMajor: return "the PAOS message's ResultMajor is not ok, warning or error"
        }
    }

    /// What AusweisApp reports for a broken or unexpected message (docs/protocol.md, "PAOS message order").
    public var result: ECardAPIResult { .error(.internalError) }

    /// Printable ASCII only, at most 64 characters: safe to put into a message.
    static func cut(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.filter { $0.value >= 0x20 && $0.value < 0x7F }.prefix(64)))
    }
}
