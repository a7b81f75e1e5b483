import EIDCrypto
import SmartCard

/// Terminal Authentication version 2, card side (BSI TR-03110-3, 2.5 and B.11; docs/protocol.md, "CVCA link
/// certificates" and "Terminal Authentication"): the rules a chip applies, for eid-sim and any other software
/// card. One value per card session; the card's persistent trust anchors and current date go in and come out
/// (`trustAnchors`, `currentDate`), so the card keeps what TA changed.
///
/// Each method answers one command and throws `CardError.statusWord` with the card's answer:
///
/// | command | rule | SW |
/// |---|---|---|
/// | MSE:Set DST | the CAR names a trust anchor or a certificate imported in this session | else 6A88 |
/// | PSO:Verify Certificate | after MSE:Set DST | else 6985 |
/// | | a certificate whose CAR is the selected key | else 6A80 |
/// | | its signature verifies under the selected key | else 6300 |
/// | | role and rights fit the issuer (CVCA → link CVCA or DV, DV → terminal; a CHAT beyond the issuer's is accepted, TA grants the AND) | else 6A80 |
/// | | not expired on the card's current date | else 6A80 |
/// | | then imported; a CVCA link certificate newer than the current trust point becomes the current trust point (the card keeps it and the one before: CAR_curr, CAR_prev); the current date rises to the effective date of a CVCA, DV or domestic terminal certificate | 9000 |
/// | MSE:Set AT (TA) | PACE with a CHAT ran in this session | else 6985 |
/// | | the CHR is an imported terminal certificate | else 6A88 |
/// | | the algorithm is that certificate's key algorithm | else 6A80 |
/// | GET CHALLENGE | Le 8 | else 6700 |
/// | EXTERNAL AUTHENTICATE | after MSE:Set AT and GET CHALLENGE | else 6985 |
/// | | signature over ID_PICC ‖ r_PICC ‖ Comp(PK_PCD) ‖ aux verifies | else 6300, and TA must start again |
public struct TerminalAuthenticationCard: Sendable {
    /// The CVCA certificates the card trusts (CAR_curr and CAR_prev of PACE).
    public var trustAnchors: [CVCertificate]
    /// The card's notion of today (TR-03110-3, 2.5: it has no clock).
    public var currentDate: CalendarDate
    /// Where a card keeps this value between commands (by name).
    public static let stateKey = "TA"

    /// Certificates imported in this session, each with the verified chain that ends in it.
    private var imported: [String: CVCertificateChain] = [:]
    /// The chain whose last key MSE:Set DST selected.
    private var selected: [CVCertificate]?
    /// The terminal chain and template of MSE:Set AT.
    private var terminal: (chain: CVCertificateChain, template: TerminalAuthenticationTemplate)?
    private var challenge: [UInt8]?

    public init(trustAnchors: [CVCertificate], currentDate: CalendarDate) {
        self.trustAnchors = trustAnchors
        self.currentDate = currentDate
    }

    /// The CHRs of the trust anchors, most recent first: CAR 1 and CAR 2 of PACE step 4.
    public var trustPointReferences: [String] {
        Array(
            trustAnchors.sorted { $0.body.effectiveDate > $1.body.effectiveDate }.map(\.body.holderReference).prefix(2))
    }

    /// MSE:Set DST: selects the key of `car`.
    public mutating func setDST(authorityReference car: String) throws {
        if let anchor = trustAnchors.first(where: { $0.body.holderReference == car }) {
            selected = [anchor]
        } else if let chain = imported[car] {
            selected = chain.certificates
        } else {
            selected = nil
            throw CardError.statusWord(.referenceDataNotFound)
        }
    }

    /// MSE:Set DST from its command data `83 CAR`.
    public mutating func setDST(data: [UInt8]) throws {
        var offset = 0
        guard let tlv = try? TLV.read(data, at: &offset), offset == data.count, tlv.tag == 0x83, !tlv.value.isEmpty
        else { throw CardError.statusWord(.wrongData) }
        try setDST(authorityReference: String(decoding: tlv.value, as: UTF8.self))
    }

    /// PSO:Verify Certificate with the body and signature objects.
    public mutating func verifyCertificate(bodyAndSignature: [UInt8]) throws {
        guard let issuerPath = selected else { throw CardError.statusWord(.conditionsOfUseNotSatisfied) }
        guard let certificate = try? CVCertificate(bodyAndSignature: bodyAndSignature),
            certificate.body.authorityReference == issuerPath[issuerPath.count - 1].body.holderReference
        else { throw CardError.statusWord(.wrongData) }
        let issuer = issuerPath[issuerPath.count - 1]
        // The card does not refuse a certificate for an effective date after its own date: it
        // moves its date forward instead (below). Expiry counts against the later of the two.
        let checkDate = max(currentDate, certificate.body.effectiveDate)
        let chain: CVCertificateChain
        do {
            chain = try CVCertificateChain(verifying: issuerPath + [certificate], date: checkDate)
        } catch CVCertificateChainError.invalidSignature {
            throw CardError.statusWord(.authenticationFailed)
        } catch {
            throw CardError.statusWord(.wrongData)
        }
        guard currentDate <= certificate.body.expirationDate else { throw CardError.statusWord(.wrongData) }
        currentDate = certificate.cardCurrentDate(after: currentDate, issuerRole: issuer.role)
        if certificate.role == .cvca { moveTrustPoint(to: certificate) }
        imported[certificate.body.holderReference] = chain
        selected = nil
    }

    /// A verified CVCA link certificate and the card's trust points (docs/protocol.md, "CVCA link
    /// certificates", after TR-03110-3, whose text was not at hand: the rule follows the reference clients):
    /// the card stores the new CVCA's key as its current trust point when the certificate is newer (a later
    /// effective date) than the current one, keeps the one before as the previous trust point (PACE's
    /// CAR_prev, for terminals that still send chains from it), and forgets older ones: a card holds two. An
    /// older link certificate moves nothing back; it serves the chain of this session only.
    private mutating func moveTrustPoint(to link: CVCertificate) {
        let current = trustAnchors.map(\.body.effectiveDate).max()
        if let current, link.body.effectiveDate <= current { return }
        trustAnchors.removeAll { $0.body.holderReference == link.body.holderReference }
        trustAnchors.append(link)
        while trustAnchors.count > 2,
            let oldest = trustAnchors.indices.min(by: {
                trustAnchors[$0].body.effectiveDate < trustAnchors[$1].body.effectiveDate
            })
        {
            trustAnchors.remove(at: oldest)
        }
    }

    /// MSE:Set AT for TA from its command data. `paceCHAT` is the CHAT of this session's PACE
    /// (nil: PACE without a CHAT, after which no TA is possible).
    public mutating func setAuthenticationTemplate(data: [UInt8], paceCHAT: CHAT?) throws {
        terminal = nil
        guard paceCHAT != nil else { throw CardError.statusWord(.conditionsOfUseNotSatisfied) }
        guard let template = try? TerminalAuthenticationTemplate(data: data) else {
            throw CardError.statusWord(.wrongData)
        }
        guard let chain = imported[template.holderReference], chain.target.role == .terminal else {
            throw CardError.statusWord(.referenceDataNotFound)
        }
        guard chain.target.body.publicKey.algorithm == template.algorithm else {
            throw CardError.statusWord(.wrongData)
        }
        terminal = (chain, template)
    }

    /// GET CHALLENGE: a fresh r_PICC (`fixed` replaces the random bytes, for published examples).
    public mutating func getChallenge(length: Int?, fixed: [UInt8]? = nil) throws -> [UInt8] {
        guard length == TerminalAuthenticationSignatureInput.challengeLength else {
            throw CardError.statusWord(.wrongLength)
        }
        let nonce = try fixed ?? SecureRandom.bytes(TerminalAuthenticationSignatureInput.challengeLength)
        challenge = nonce
        return nonce
    }

    /// EXTERNAL AUTHENTICATE: checks the signature. On success returns what TA established: the
    /// effective CHAT (PACE's ∩ the chain's) and the announced ephemeral key for CA. A wrong
    /// signature throws 6300 and forgets the template and challenge.
    public mutating func externalAuthenticate(signature: [UInt8], idPICC: [UInt8], paceCHAT: CHAT?) throws
        -> TerminalAuthenticationOutcome
    {
        guard let (chain, template) = terminal, let challenge, let paceCHAT else {
            throw CardError.statusWord(.conditionsOfUseNotSatisfied)
        }
        self.terminal = nil
        self.challenge = nil
        let input = TerminalAuthenticationSignatureInput(
            idPICC: idPICC, challenge: challenge, compressedEphemeralKey: template.compressedEphemeralKey,
            auxiliaryData: template.auxiliaryData)
        guard let key = try? chain.targetKey(), input.verify(signature, with: key, algorithm: template.algorithm) else {
            throw CardError.statusWord(.authenticationFailed)
        }
        guard let effective = chain.effectiveCHAT.intersection(paceCHAT) else {
            throw CardError.statusWord(.conditionsOfUseNotSatisfied)
        }
        return TerminalAuthenticationOutcome(
            effectiveCHAT: effective, terminalCertificate: chain.target,
            compressedEphemeralKey: template.compressedEphemeralKey, auxiliaryData: template.auxiliaryData)
    }
}

/// What a successful Terminal Authentication established on the card.
public struct TerminalAuthenticationOutcome: Equatable, Sendable {
    /// The rights the terminal has: PACE's CHAT ∩ the chain's CHATs, with the terminal role.
    public let effectiveCHAT: CHAT
    public let terminalCertificate: CVCertificate
    /// Comp(PK_PCD): Chip Authentication must use the key with this x-coordinate.
    public let compressedEphemeralKey: [UInt8]
    /// The authenticated auxiliary data (the `67` object), for VERIFY.
    public let auxiliaryData: [UInt8]?
}
