import Online
import SmartCard

/// The PAOS side of the authentication: one client message out, the server's next in, and the
/// failure report in the response the server waits for (docs/protocol.md, "Reporting a local failure").
extension AuthWorkflow {
    /// The conversation with the eID server that the TcToken fetch opened. The last message
    /// received is the conversation's own state, as a TLS session keeps its sequence: the next
    /// message relates to it (RelatesTo), and a failure report takes the response type it asks
    /// for, even when it came out of order. What the workflow works on travels in its states.
    struct PAOSConversation {
        let tcTokenURL: String
        let connection: AuthConnection
        var lastReceived: PAOSEnvelope?

        init(tcTokenURL: String, connection: AuthConnection) {
            self.tcTokenURL = tcTokenURL
            self.connection = connection
        }
    }

    /// Sends one client message and reads the server's answer, which must be one the order of
    /// docs/protocol.md, "PAOS message order", allows after it.
    func exchange(_ message: PAOSMessage, _ run: inout Run) -> AuthEvent {
        guard let transport = run.paos?.connection.transport else { return .failed(Self.noConnection) }
        let envelope = PAOSEnvelope(message, relatesTo: run.paos?.lastReceived?.messageID)
        let answer: [UInt8]
        do { answer = try transport.exchange(envelope.encoded()) } catch {
            return .failed(.authConnectionFailed(error))
        }
        let received: PAOSEnvelope
        do { received = try PAOSEnvelope.parse(answer) } catch { return .failed(.authMalformedServerMessage(error)) }
        run.paos?.lastReceived = received
        guard received.message.mayFollow(message) else { return .failed(.authUnexpectedServerMessage) }
        switch received.message {
        case .initializeFramework: return .received(.initializeFramework)
        case .didAuthenticate(let request):
            switch request.data {
            case .eac1(let input): return .received(.eac1(input))
            case .eac2(let input): return .received(.eac2(input))
            case .eacAdditional(let additional): return .received(.eacAdditional(signature: additional.signature))
            }
        case .transmit(let request): return .received(.transmit(request))
        case .startPAOSResponse(let response): return .received(.startPAOSResponse(response.result))
        case .startPAOS, .initializeFrameworkResponse, .didAuthenticateResponse, .transmitResponse:
            return .failed(.authUnexpectedServerMessage)
        }
    }

    /// The response the server waits for, reporting `reason`.
    func sendError(_ reason: FailureReason, _ run: inout Run) -> AuthEvent {
        let result = DSSResult(reason.result)
        let response: PAOSMessage
        switch run.paos?.lastReceived?.message.kind {
        case .initializeFramework?:
            // With the Version, which Management.xsd requires in an error report too (as AusweisApp sends it).
            response = .initializeFrameworkResponse(InitializeFrameworkResponse(result: result))
        case .didAuthenticateEAC1?, .didAuthenticateEAC2?, .didAuthenticateEACAdditional?:
            response = .didAuthenticateResponse(DIDAuthenticateResponse(result: result, nil))
        case .transmit?:
            response = .transmitResponse(TransmitResponse(result: result, outputAPDUs: []))
        default:
            return .failed(reason)
        }
        return exchange(response, &run)
    }
}
