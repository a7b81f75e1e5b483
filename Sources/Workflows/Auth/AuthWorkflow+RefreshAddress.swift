import Online

/// Where the browser goes at the end (StateCheckRefreshAddress, AUTH-PROTOCOL.md §1.6, §1.7).
extension AuthWorkflow {
    /// The refresh URL for `outcome`, or the communication-error address when there is none.
    func determineRefreshAddress(_ outcome: AuthOutcome, _ run: inout Run) -> AuthEvent {
        do {
            run.url = try refreshURL(for: outcome, terminal: run.terminal, refusedEAC1: run.refusedEAC1Check)
            return .proceed
        } catch {
            // No refresh URL: the communication-error address, with communicationError.
            run.url = configuration.tcToken.usableCommunicationErrorAddress.map {
                RefreshResult.error(.communicationError).appended(to: $0)
            }
            return .failed(.authRefreshAddressFailed(error))
        }
    }

    /// StateCheckRefreshAddress and the result parameters: the https RefreshAddress, checked with
    /// `refreshClient` (§1.6: redirects followed to the service's origin, every hop's TLS
    /// certificate in CommCertificates), with the result parameters (§1.7); without an https
    /// RefreshAddress, the CommunicationErrorAddress with communicationError. Throws when the
    /// check finds no refresh URL.
    func refreshURL(
        for outcome: AuthOutcome, terminal: TerminalCheck?, refusedEAC1: RefreshAddressCheck? = nil
    ) throws(RefreshAddressError) -> String? {
        let token = configuration.tcToken
        guard WebOrigin(url: token.refreshAddress)?.isHTTPS == true else {
            return token.usableCommunicationErrorAddress.map {
                RefreshResult.error(.communicationError).appended(to: $0)
            }
        }
        var address = token.refreshAddress
        if let refreshClient {
            let check =
                terminal == nil && refusedEAC1 != nil
                ? refusedEAC1!
                : RefreshAddressCheck(
                    subjectURL: terminal?.description.subjectURL ?? configuration.tcTokenURL,
                    commCertificates: terminal.map {
                        ($0.description.commCertificates ?? [], $0.documentVerifier.body.publicKey.algorithm.digest)
                    })
            address = try check.resolve(address, client: refreshClient)
        }
        return RefreshResult(outcome.result, fromServer: outcome.fromServer).appended(to: address)
    }
}
