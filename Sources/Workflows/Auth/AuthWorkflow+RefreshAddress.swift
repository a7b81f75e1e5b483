import Online

/// Where the browser goes at the end (StateCheckRefreshAddress; docs/protocol.md, "Refresh address check").
extension AuthWorkflow {
    /// The refresh URL for `outcome`, or the communication-error address when there is none.
    func determineRefreshAddress(_ outcome: AuthOutcome, _ basis: RefreshAddressBasis, _ paos: PAOSConversation?)
        -> AuthEvent
    {
        guard let paos else {
            // No TcToken, so no refresh address: a refused token's communication-error address, if any.
            guard case .noTcToken(let url) = basis else { return .refreshAddressDetermined(url: nil) }
            return .refreshAddressDetermined(url: url)
        }
        let token = paos.connection.tcToken
        do {
            return .refreshAddressDetermined(url: try refreshURL(for: outcome, basis, paos))
        } catch {
            // No refresh URL: the communication-error address, with communicationError.
            let url = token.usableCommunicationErrorAddress.map {
                RefreshTarget(address: $0, result: .error(.communicationError))
            }
            return .refreshAddressFailed(.authRefreshAddressFailed(error), url: url)
        }
    }

    /// StateCheckRefreshAddress and the result parameters: the https RefreshAddress, checked with the
    /// connection's refresh client ("Refresh address check": redirects followed to the service's origin,
    /// every hop's TLS certificate in CommCertificates), with the result parameters ("Result on the refresh
    /// address"); without an https RefreshAddress, the CommunicationErrorAddress with communicationError.
    /// Throws when the check finds no refresh URL.
    func refreshURL(for outcome: AuthOutcome, _ basis: RefreshAddressBasis, _ paos: PAOSConversation)
        throws(RefreshAddressError) -> RefreshTarget?
    {
        let token = paos.connection.tcToken
        guard WebOrigin(url: token.refreshAddress)?.isHTTPS == true else {
            return token.usableCommunicationErrorAddress.map {
                RefreshTarget(address: $0, result: .error(.communicationError))
            }
        }
        var address = token.refreshAddress
        if let client = paos.connection.refreshClient {
            address = try check(basis, tcTokenURL: paos.tcTokenURL).resolve(address, client: client)
        }
        return RefreshTarget(address: address, result: RefreshResult(outcome.result, fromServer: outcome.fromServer))
    }

    /// The check of the refresh address: against the terminal's description, a refused EAC1's,
    /// or (before EAC1, or when the refused one has none) the tcTokenURL.
    func check(_ basis: RefreshAddressBasis, tcTokenURL: String) -> RefreshAddressCheck {
        switch basis {
        case .terminal(let terminal):
            let digest = terminal.documentVerifier.body.publicKey.algorithm.digest
            return RefreshAddressCheck(
                subjectURL: terminal.description.subjectURL ?? tcTokenURL,
                commCertificates: (terminal.description.commCertificates ?? [], digest))
        case .refusedEAC1(let input):
            if let check = RefreshAddressCheck(refusedEAC1: input) { return check }
        case .noTcToken, .tcTokenURL:
            break
        }
        return RefreshAddressCheck(subjectURL: tcTokenURL, commCertificates: nil)
    }
}
