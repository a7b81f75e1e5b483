import EAC
import Online
import SmartCard

/// The EAC outputs (StateSendDIDAuthenticateResponseEAC1, StateDidAuthenticateEac2), each
/// answered to the server, and the server's APDUs on the card (StateTransmit).
extension AuthWorkflow {
    /// The EAC1 output: what PACE and GET CHALLENGE gave, with the accepted rights' CHAT.
    func sendEAC1Output(_ accepted: AcceptedRequest, _ data: EAC1CardData, _ run: inout Run) -> AuthEvent {
        // The CARs go to the server only when the chain (through EAC1's link certificates) does not reach
        // the card's trust point.
        let known = accepted.terminal.reachesCard(data.certificationAuthorityReferences)
        let output = EAC1OutputType(
            chat: accepted.rights.effectiveCHAT.encoded,
            certificationAuthorityReferences: known ? [] : data.certificationAuthorityReferences,
            efCardAccess: data.efCardAccess, idPICC: data.idPICC, challenge: data.challenge)
        return exchange(.didAuthenticateResponse(DIDAuthenticateResponse(.eac1(output))), &run)
    }

    /// TA with the server's signature, EF.CardSecurity, CA with its key, then the EAC2 output.
    func didAuthenticateEAC2(
        _ terminal: TerminalCheck, _ input: EAC2InputType, signature: [UInt8], _ run: inout Run
    ) throws -> AuthEvent {
        guard let card = run.card else { return .failed(.cardFailed(Self.noCard, during: .authentication)) }
        // Only a signature of the AT key's size goes to the card (TR-03111 plain r ‖ s): any other
        // is refused here, as a malformed EphemeralPublicKey is, before it reaches the card.
        guard signature.count == terminal.signatureLength else {
            return .failed(.authMalformedServerMessage(.invalidValue(message: "DIDAuthenticate", element: "Signature")))
        }
        // EAC2's link certificates lead from an older trust point of the card (TR-03124-2 C3_02, C3_03).
        let links = input.certificates.compactMap { try? CVCertificate(encoded: $0) }
        let data = try card.didAuthenticateEAC2(
            chain: terminal.cardChain(additionalLinks: links), ephemeralKey: input.ephemeralPublicKey,
            auxiliaryData: terminal.auxiliaryData?.encoded, signature: signature)
        let output = EAC2OutputType(
            efCardSecurity: data.efCardSecurity, authenticationToken: data.token, nonce: data.nonce)
        return exchange(.didAuthenticateResponse(DIDAuthenticateResponse(.eac2(output))), &run)
    }

    /// Sends the server's APDUs to the card in order, unchanged, up to the first response whose status word
    /// the server does not accept (docs/protocol.md, "PAOS messages"); the TransmitResponse is the next
    /// effect.
    func transmit(_ request: Transmit, _ run: inout Run) throws -> AuthEvent {
        guard let card = run.card else { return .failed(.cardFailed(Self.noCard, during: .authentication)) }
        var outputs: [[UInt8]] = []
        for info in request.inputAPDUs {
            let response = try card.transmit(info.inputAPDU)
            outputs.append(response)
            if !info.accepts(response: response) {
                // A response too short for a status word is stopped at 0000, which no server accepts.
                let statusWord = (try? ResponseAPDU(bytes: response))?.statusWord ?? StatusWord(rawValue: 0)
                return .cardTransmitted(outputs, stoppedAt: statusWord)
            }
        }
        return .cardTransmitted(outputs, stoppedAt: nil)
    }

    /// A card step's failure as the reason AusweisApp gives.
    static func cardFailure(_ error: Error) -> FailureReason {
        switch error {
        case let error as CardError: return .card(error, during: .authentication)
        case EACStepError.refused: return .authEACRefused
        case EACStepError.cardNotGenuine: return .authCardNotGenuine
        case EACStepError.cardSecurityUnusable: return .authCardSecurityUnusable
        case EACStepError.invalidEphemeralKey:
            return .authMalformedServerMessage(.invalidValue(message: "DIDAuthenticate", element: "EphemeralPublicKey"))
        default: return .cardFailed(CardError(error), during: .authentication)
        }
    }
}
