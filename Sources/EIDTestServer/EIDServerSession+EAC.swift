import EAC
import EIDCrypto
import Online
import SmartCard

/// EAC1 and EAC2 on the server side: what it asks for, what it checks in the client's outputs,
/// and the keys of its secure messaging after Chip Authentication (docs/protocol.md, "The eID server's side").
extension EIDServerSession {
    /// DIDAuthenticate with EAC1InputType: DV and AT certificates, the description, the CHATs,
    /// the auxiliary data and transaction info. No RequiredCHAT when no right is required (every
    /// right asked for is optional: TR-03124-2 C2_02).
    var eac1Request: DIDAuthenticate {
        DIDAuthenticate(
            .eac1(
                EAC1InputType(
                    certificates: terminal.certificates, certificateDescription: terminal.description,
                    requiredCHAT: requiredCHAT.accessRights.isEmpty ? nil : requiredCHAT.encoded,
                    optionalCHAT: optionalCHAT?.encoded,
                    authenticatedAuxiliaryData: auxiliaryData?.encoded,
                    transactionInfo: configuration.transactionInfo, acceptedEIDTypes: ["CardCertified"])))
    }

    /// Checks the EAC1 output (the effective CHAT within what was asked and holding every required
    /// right, ID_PICC, the challenge, EF.CardAccess) and makes EAC2: a fresh ephemeral key on the
    /// Chip Authentication curve EF.CardAccess names and the TA signature over ID_PICC ‖ challenge
    /// ‖ Comp(key) ‖ aux with the AT key (left out for the fault `eac_additional` and the early
    /// ends after its round, wrong for `wrong_ta_signature`, padded with zeros for
    /// `oversized_ta_signature`), with the certificates of `eac2_other_at` and `eac2_expired_at`.
    mutating func eac2Input(after output: EAC1OutputType) throws(SessionFailure) -> EAC2InputType {
        guard let chatBytes = output.chat, let chat = try? CHAT(encoded: chatBytes),
            chat.terminalType == .authenticationTerminal
        else { throw .invalidEAC1Output("CertificateHolderAuthorizationTemplate") }
        // AusweisApp (and eid) add CAN allowed on their own when the AT certificate grants it, as
        // TR-03124 lets a client do; every other right must have been asked for.
        var asked = requiredCHAT.accessRights.union(optionalCHAT?.accessRights ?? [])
        if terminal.terminal.certificate.body.chat.accessRights.contains(.canAllowed) { asked.insert(.canAllowed) }
        // Without CHATs in EAC1 (`eac1_no_chats`) the client offers the AT certificate's rights.
        if configuration.faults.contains(.eac1NoCHATs) { asked = terminal.terminal.certificate.body.chat.accessRights }
        guard chat.accessRights.isSubset(of: asked), requiredCHAT.accessRights.isSubset(of: chat.accessRights) else {
            throw .chatNotAsRequested
        }
        guard let idPICC = output.idPICC, !idPICC.isEmpty else { throw .invalidEAC1Output("IDPICC") }
        guard let challenge = output.challenge else { throw .invalidEAC1Output("Challenge") }
        guard let cardAccess = output.efCardAccess, let infos = try? SecurityInfos(efCardAccess: cardAccess) else {
            throw .invalidEAC1Output("EFCardAccess")
        }
        let parameterID =
            infos.chipAuthenticationDomainParameterInfos.lazy.compactMap(
                \.domainParameter.standardizedDomainParameterID
            )
            .first ?? infos.paceInfos.lazy.compactMap(\.parameterID).first
            ?? ECCurve.brainpoolP256r1
            .standardizedDomainParameterID
        let key: ECKeyPair
        do {
            key = try ECKeyPair.generate(group: try ECGroup(standardizedDomainParameterID: parameterID))
        } catch { throw .invalidEAC1Output("EFCardAccess") }
        let input = TerminalAuthenticationSignatureInput(
            idPICC: idPICC, challenge: challenge,
            compressedEphemeralKey: TerminalAuthenticationSignatureInput.compress(key.publicKey),
            auxiliaryData: auxiliaryData?.encoded)
        do {
            if configuration.faults.contains(.wrongTASignature) {
                let stranger = try ECKeyPair.generate(group: terminal.terminal.keyPair.privateKey.group)
                signature = try input.sign(with: stranger.privateKey, algorithm: terminal.algorithm)
            } else {
                signature = try input.sign(with: terminal.terminal.keyPair.privateKey, algorithm: terminal.algorithm)
            }
        } catch { throw .invalidEAC1Output("IDPICC") }
        if configuration.faults.contains(.oversizedTASignature) {
            signature += [UInt8](repeating: 0, count: max(0, ServerFault.oversizedLength - signature.count))
        }
        // C3: the link certificates from the card's trust point the client names on (TR-03124-2 C3_02, C3_03).
        let links: [[UInt8]]
        do {
            links =
                try terminal.cvcaChain?.eac2Links(
                    certificationAuthorityReferences: output.certificationAuthorityReferences
                ).map { try $0.encoded } ?? []
        } catch { throw .invalidEAC1Output("CertificationAuthorityReference") }
        certificationAuthorityReferences = output.certificationAuthorityReferences
        effectiveCHAT = chat
        self.idPICC = idPICC
        self.challenge = challenge
        ephemeralKey = key
        let withSignature = !configuration.faults.contains(where: \.splitsEAC2)
        return EAC2InputType(
            certificates: links + terminal.eac2Certificates, ephemeralPublicKey: key.publicKey.encoded,
            signature: withSignature ? signature : nil)
    }

    /// Passive authentication of EF.CardSecurity against the CSCA (a validly signed file of
    /// another CSCA is a foreign card: noted, not fatal), then the server side of Chip
    /// Authentication: K, KSenc and KSmac from r_PICC, the check of T_PICC; secure messaging
    /// starts under the new keys with SSC 0.
    mutating func establishSecureMessaging(_ output: EAC2OutputType) throws(SessionFailure) {
        guard let cardSecurity = output.efCardSecurity else { throw .invalidEAC2Output("EFCardSecurity") }
        guard let token = output.authenticationToken else { throw .invalidEAC2Output("AuthenticationToken") }
        guard let nonce = output.nonce else { throw .invalidEAC2Output("Nonce") }
        let infos: SecurityInfos
        if let verified = try? PassiveAuthentication.verify(cardSecurity, csca: configuration.pki.csca) {
            infos = verified
            passiveAuthentication = .verified
        } else if let foreign = try? PassiveAuthentication.verify(cardSecurity, csca: nil) {
            infos = foreign
            passiveAuthentication = .foreignCard
        } else {
            throw .passiveAuthenticationFailed
        }
        guard let key = ephemeralKey, let selection = try? ChipAuthentication.select(from: infos),
            selection.publicKey.group == key.publicKey.group
        else { throw .chipAuthenticationFailed }
        guard
            let result = try? ChipAuthentication.terminalKeys(
                protocol: selection.protocol, chipKey: selection.publicKey, ephemeralKey: key, nonce: nonce,
                token: token)
        else { throw .chipAuthenticationFailed }
        secureMessaging = ServerSecureMessaging(keys: result.sessionKeys)
        ephemeralKey = nil
        pendingBatches = transmitPlan()
    }
}
