/// One PAOS message of online authentication, either direction (docs/protocol.md, "PAOS messages"),
/// and the order in which they may come ("PAOS message order"), so that the client and the server enforce the same one.
public enum PAOSMessage: Equatable, Sendable {
    case startPAOS(StartPAOS)
    case initializeFramework(InitializeFramework)
    case initializeFrameworkResponse(InitializeFrameworkResponse)
    case didAuthenticate(DIDAuthenticate)
    case didAuthenticateResponse(DIDAuthenticateResponse)
    case transmit(Transmit)
    case transmitResponse(TransmitResponse)
    case startPAOSResponse(StartPAOSResponse)

    /// Who sends a message: the client POSTs, the server answers in the HTTP response.
    public enum Sender: Sendable { case client, server }

    /// A message's place in the exchange: its type, and for DIDAuthenticate(Response) the EAC
    /// step it carries.
    public enum Kind: String, Sendable, CaseIterable {
        case startPAOS
        case initializeFramework
        case initializeFrameworkResponse
        case didAuthenticateEAC1
        case didAuthenticateEAC2
        case didAuthenticateEACAdditional
        case didAuthenticateResponseEAC1
        /// EAC2OutputType with the challenge only: asks for EACAdditionalInputType.
        case didAuthenticateResponseEAC2Challenge
        case didAuthenticateResponseEAC2
        /// A DIDAuthenticateResponse without output: an error report.
        case didAuthenticateResponseError
        case transmit
        case transmitResponse
        case startPAOSResponse

        public var sender: Sender {
            switch self {
            case .startPAOS, .initializeFrameworkResponse, .didAuthenticateResponseEAC1,
                .didAuthenticateResponseEAC2Challenge, .didAuthenticateResponseEAC2, .didAuthenticateResponseError,
                .transmitResponse:
                return .client
            case .initializeFramework, .didAuthenticateEAC1, .didAuthenticateEAC2, .didAuthenticateEACAdditional,
                .transmit, .startPAOSResponse:
                return .server
            }
        }

        /// The kinds that may answer this one (docs/protocol.md, "PAOS message order"). The server may end
        /// with StartPAOSResponse whenever it is its turn; the client answers each server request with its
        /// response (or that response reporting an error).
        public var successors: [Kind] {
            switch self {
            case .startPAOS: return [.initializeFramework, .didAuthenticateEAC1, .startPAOSResponse]
            case .initializeFramework: return [.initializeFrameworkResponse]
            case .initializeFrameworkResponse: return [.didAuthenticateEAC1, .startPAOSResponse]
            case .didAuthenticateEAC1: return [.didAuthenticateResponseEAC1, .didAuthenticateResponseError]
            case .didAuthenticateResponseEAC1: return [.didAuthenticateEAC2, .startPAOSResponse]
            case .didAuthenticateEAC2:
                return [
                    .didAuthenticateResponseEAC2, .didAuthenticateResponseEAC2Challenge, .didAuthenticateResponseError,
                ]
            case .didAuthenticateResponseEAC2Challenge: return [.didAuthenticateEACAdditional, .startPAOSResponse]
            case .didAuthenticateEACAdditional: return [.didAuthenticateResponseEAC2, .didAuthenticateResponseError]
            case .didAuthenticateResponseEAC2: return [.transmit, .startPAOSResponse]
            case .didAuthenticateResponseError: return [.startPAOSResponse]
            case .transmit: return [.transmitResponse]
            case .transmitResponse: return [.transmit, .startPAOSResponse]
            case .startPAOSResponse: return []
            }
        }
    }

    /// The first message of every exchange.
    public static let firstKind = Kind.startPAOS

    public var kind: Kind {
        switch self {
        case .startPAOS: return .startPAOS
        case .initializeFramework: return .initializeFramework
        case .initializeFrameworkResponse: return .initializeFrameworkResponse
        case .didAuthenticate(let message):
            switch message.data {
            case .eac1: return .didAuthenticateEAC1
            case .eac2: return .didAuthenticateEAC2
            case .eacAdditional: return .didAuthenticateEACAdditional
            }
        case .didAuthenticateResponse(let message):
            switch message.data {
            case .eac1: return .didAuthenticateResponseEAC1
            case .eac2(let output):
                return output.isChallengeOnly ? .didAuthenticateResponseEAC2Challenge : .didAuthenticateResponseEAC2
            case nil: return .didAuthenticateResponseError
            }
        case .transmit: return .transmit
        case .transmitResponse: return .transmitResponse
        case .startPAOSResponse: return .startPAOSResponse
        }
    }

    public var sender: Sender { kind.sender }

    /// The result a client response carries (nil for StartPAOS and the server's requests).
    public var responseResult: DSSResult? {
        switch self {
        case .initializeFrameworkResponse(let message): return message.result
        case .didAuthenticateResponse(let message): return message.result
        case .transmitResponse(let message): return message.result
        case .startPAOSResponse(let message): return message.result
        case .startPAOS, .initializeFramework, .didAuthenticate, .transmit: return nil
        }
    }

    /// Whether this message may follow `previous` (nil: nothing was sent yet). Besides the kinds of
    /// docs/protocol.md, "PAOS message order": a client response reporting an error may only be followed by
    /// StartPAOSResponse (a TransmitResponse with the responses up to an unacceptable status word also by
    /// Transmit); the challenge-only EAC2 answer only follows an EAC2InputType without a signature, the full
    /// one only one with a signature or an EACAdditionalInputType.
    public func mayFollow(_ previous: PAOSMessage?) -> Bool {
        guard let previous else { return kind == Self.firstKind }
        guard previous.kind.successors.contains(kind) else { return false }
        if previous.sender == .client, previous.responseResult?.major == .error {
            // A TransmitResponse that stopped at a status word the server did not accept still
            // carries the responses up to it (TR-03112-7): the server may go on with another
            // Transmit, as AusweisApp's StateTransmit lets it. Any other error report is the end.
            if case .transmitResponse(let response) = previous, !response.outputAPDUs.isEmpty {
                return kind == .transmit || kind == .startPAOSResponse
            }
            return kind == .startPAOSResponse
        }
        if case .didAuthenticate(let request) = previous, case .eac2(let input) = request.data {
            switch kind {
            case .didAuthenticateResponseEAC2Challenge: return input.signature == nil
            case .didAuthenticateResponseEAC2: return input.signature != nil
            default: return true
            }
        }
        return true
    }

    init(body element: XMLElement) throws(PAOSError) {
        switch element.name {
        case StartPAOS.elementName: self = .startPAOS(try StartPAOS(element: element))
        case InitializeFramework.elementName: self = .initializeFramework(try InitializeFramework(element: element))
        case InitializeFrameworkResponse.elementName:
            self = .initializeFrameworkResponse(try InitializeFrameworkResponse(element: element))
        case DIDAuthenticate.elementName: self = .didAuthenticate(try DIDAuthenticate(element: element))
        case DIDAuthenticateResponse.elementName:
            self = .didAuthenticateResponse(try DIDAuthenticateResponse(element: element))
        case Transmit.elementName: self = .transmit(try Transmit(element: element))
        case TransmitResponse.elementName: self = .transmitResponse(try TransmitResponse(element: element))
        case StartPAOSResponse.elementName: self = .startPAOSResponse(try StartPAOSResponse(element: element))
        case "Fault" where element.namespace == PAOSNamespace.soap:
            let code = element.children(named: "faultcode").first?.trimmedText ?? ""
            throw .soapFault(code: PAOSError.cut(code))
        default: throw .unknownMessage(PAOSError.cut(element.name))
        }
    }

    var bodyElement: XMLElement {
        switch self {
        case .startPAOS(let message): return message.element
        case .initializeFramework(let message): return message.element
        case .initializeFrameworkResponse(let message): return message.element
        case .didAuthenticate(let message): return message.element
        case .didAuthenticateResponse(let message): return message.element
        case .transmit(let message): return message.element
        case .transmitResponse(let message): return message.element
        case .startPAOSResponse(let message): return message.element
        }
    }
}
