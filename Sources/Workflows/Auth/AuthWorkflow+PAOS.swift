import Online
import SmartCard

/// The PAOS side of the authentication: one client message out, the server's next in, and the
/// failure report in the response the server waits for (AUTH-PROTOCOL.md §2.4).
extension AuthWorkflow {
    /// Sends one client message and reads the server's answer, which must be one the order of
    /// §2.4 allows after it.
    func exchange(_ message: PAOSMessage, _ run: inout Run) -> AuthEvent {
        let envelope = PAOSEnvelope(message, relatesTo: run.lastReceived?.messageID)
        let answer: [UInt8]
        do { answer = try transport.exchange(envelope.encoded()) } catch {
            return .failed(.authConnectionFailed(error))
        }
        let received: PAOSEnvelope
        do { received = try PAOSEnvelope.parse(answer) } catch { return .failed(.authMalformedServerMessage(error)) }
        run.lastReceived = received
        guard received.message.mayFollow(message) else { return .failed(.authUnexpectedServerMessage) }
        switch received.message {
        case .initializeFramework: return .received(.initializeFramework)
        case .didAuthenticate(let request):
            switch request.data {
            case .eac1: return .received(.eac1)
            case .eac2(let input):
                run.eac2 = input
                return .received(.eac2(signed: input.signature != nil))
            case .eacAdditional: return .received(.eacAdditional)
            }
        case .transmit: return .received(.transmit)
        case .startPAOSResponse(let response): return .received(.startPAOSResponse(response.result))
        case .startPAOS, .initializeFrameworkResponse, .didAuthenticateResponse, .transmitResponse:
            return .failed(.authUnexpectedServerMessage)
        }
    }

    /// The response the server waits for, reporting `reason`.
    func sendError(_ reason: FailureReason, _ run: inout Run) -> AuthEvent {
        let result = DSSResult(reason.result)
        let response: PAOSMessage
        switch run.lastReceived?.message.kind {
        case .initializeFramework?:
            response = .initializeFrameworkResponse(InitializeFrameworkResponse(result: result, version: nil))
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
