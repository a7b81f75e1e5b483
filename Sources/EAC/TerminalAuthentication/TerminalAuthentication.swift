import EIDCrypto
import SmartCard

/// Terminal Authentication version 2, terminal side, as an eID client drives it (BSI
/// TR-03110-2, 3.3; TR-03110-3, B.11; docs/protocol.md, "Terminal Authentication") over the PACE secure messaging
/// channel. The terminal's private key stays with someone else: a `TerminalSigner` makes the
/// EXTERNAL AUTHENTICATE signature.
///
///     let ta = TerminalAuthentication(channel: secure)
///     let challenge = try ta.getChallenge()                       // EAC1
///     try ta.importCertificates(chain, cardTrustPoints: [pace.mostRecentCAR, pace.previousCAR])
///     try ta.authenticate(terminal: at, idPICC: pace.idPICC, challenge: challenge,
///                         ephemeralKey: caKey.publicKey, auxiliaryData: aux, signer: server)
public struct TerminalAuthentication {
    public let channel: CardChannel

    public init(channel: CardChannel) { self.channel = channel }

    /// The certificates of `chain` (ordered from a CVCA to the terminal, as `CVCertificateChain`
    /// builds it) that the card does not know yet: those after the last certificate whose CHR is
    /// one of `cardTrustPoints` (the CARs from PACE); when the chain's anchor is not itself a
    /// trust point, from the first certificate whose CAR is one. Throws
    /// `noPathToCardTrustPoint` when no certificate links to any of them.
    public static func certificatesToSend(chain: [CVCertificate], cardTrustPoints: [String]) throws
        -> [CVCertificate]
    {
        if let known = chain.lastIndex(where: { cardTrustPoints.contains($0.body.holderReference) }) {
            return Array(chain[(known + 1)...])
        }
        if let first = chain.firstIndex(where: { cardTrustPoints.contains($0.body.authorityReference) }) {
            return Array(chain[first...])
        }
        throw TerminalAuthenticationError.noPathToCardTrustPoint(cars: cardTrustPoints)
    }

    /// MSE:Set DST with each certificate's CAR and PSO:Verify Certificate, for every certificate
    /// of `chain` the card does not know (`certificatesToSend`). Returns how many were sent.
    @discardableResult
    public func importCertificates(_ chain: [CVCertificate], cardTrustPoints: [String]) throws -> Int {
        let toSend = try TerminalAuthentication.certificatesToSend(chain: chain, cardTrustPoints: cardTrustPoints)
        for certificate in toSend {
            try send(.mseSetDST(authorityReference: certificate.body.authorityReference), step: .setDST)
            try send(try .psoVerifyCertificate(certificate), step: .verifyCertificate)
        }
        return toSend.count
    }

    /// GET CHALLENGE: r_PICC, 8 bytes.
    public func getChallenge() throws -> [UInt8] {
        let response = try send(
            .getChallenge(TerminalAuthenticationSignatureInput.challengeLength), step: .getChallenge)
        guard response.data.count == TerminalAuthenticationSignatureInput.challengeLength else {
            throw TerminalAuthenticationError.malformedChallenge
        }
        return response.data
    }

    /// MSE:Set AT for TA with the terminal certificate's algorithm and CHR, Comp(`ephemeralKey`)
    /// and the auxiliary data; then EXTERNAL AUTHENTICATE with the signature `signer` makes over
    /// ID_PICC ‖ challenge ‖ Comp(ephemeralKey) ‖ aux. Returns the signature input.
    @discardableResult
    public func authenticate(
        terminal: CVCertificate, idPICC: [UInt8], challenge: [UInt8], ephemeralKey: ECPoint,
        auxiliaryData: [UInt8]?, signer: TerminalSigner
    ) throws -> TerminalAuthenticationSignatureInput {
        let compressed = TerminalAuthenticationSignatureInput.compress(ephemeralKey)
        let template = TerminalAuthenticationTemplate(
            algorithm: terminal.body.publicKey.algorithm, holderReference: terminal.body.holderReference,
            auxiliaryData: auxiliaryData, compressedEphemeralKey: compressed)
        try send(.mseSetAT(terminalAuthentication: template), step: .setAT)
        let input = TerminalAuthenticationSignatureInput(
            idPICC: idPICC, challenge: challenge, compressedEphemeralKey: compressed, auxiliaryData: auxiliaryData)
        try send(.externalAuthenticate(signature: try signer.signature(for: input)), step: .externalAuthenticate)
        return input
    }

    /// The whole protocol in the order a stand-alone terminal runs it: import the certificates,
    /// GET CHALLENGE, MSE:Set AT, EXTERNAL AUTHENTICATE (the order of an eID client, whose challenge
    /// comes in EAC1).
    @discardableResult
    public func run(
        chain: [CVCertificate], cardTrustPoints: [String], idPICC: [UInt8], ephemeralKey: ECPoint,
        auxiliaryData: [UInt8]? = nil, signer: TerminalSigner
    ) throws -> TerminalAuthenticationSignatureInput {
        guard let terminal = chain.last else {
            throw TerminalAuthenticationError.noPathToCardTrustPoint(cars: cardTrustPoints)
        }
        try importCertificates(chain, cardTrustPoints: cardTrustPoints)
        let challenge = try getChallenge()
        return try authenticate(
            terminal: terminal, idPICC: idPICC, challenge: challenge, ephemeralKey: ephemeralKey,
            auxiliaryData: auxiliaryData, signer: signer)
    }

    @discardableResult
    private func send(_ command: CommandAPDU, step: EACStep) throws -> ResponseAPDU {
        let response = try channel.transmit(command)
        guard response.statusWord == .success else {
            throw TerminalAuthenticationError.refused(step: step, EACCommandOutcome(statusWord: response.statusWord))
        }
        return response
    }
}
