import Testing

@testable import Online

@Suite struct ECardAPIResultTests {
    /// The URIs are the eCard-API's (TR-03112-1), as AusweisApp reports them in AUTH.
    @Test func urisAreTheECardAPIs() {
        #expect(ECardAPIResult.Major.ok.rawValue == "http://www.bsi.bund.de/ecard/api/1.1/resultmajor#ok")
        #expect(ECardAPIResult.Major.error.rawValue == "http://www.bsi.bund.de/ecard/api/1.1/resultmajor#error")
        #expect(
            ECardAPIResult.Minor.cancellationByUser.rawValue
                == "http://www.bsi.bund.de/ecard/api/1.1/resultminor/sal#cancellationByUser")
        #expect(
            ECardAPIResult.Minor.communicationError.rawValue
                == "http://www.bsi.bund.de/ecard/api/1.1/resultminor/al/common#communicationError")
        // Cases named other than their fragment: two fragments occur in two layers, and Swift case style.
        let renamed: Set<ECardAPIResult.Minor> = [
            .dispatcherCommunicationError, .readerCancellationByUser, .readerTimeoutError,
        ]
        for minor in ECardAPIResult.Minor.allCases {
            #expect(minor.rawValue.hasPrefix("http://www.bsi.bund.de/ecard/api/1.1/resultminor/"))
            if !renamed.contains(minor) {
                #expect(minor.rawValue.lowercased().hasSuffix("#\(minor)".lowercased()), "named after the fragment")
            }
        }
        #expect(Set(ECardAPIResult.Minor.allCases.map(\.rawValue)).count == ECardAPIResult.Minor.allCases.count)
        #expect(ECardAPIResult.ok.minor == nil)
        #expect(ECardAPIResult.error(.noPermission) == ECardAPIResult(major: .error, minor: .noPermission))
    }

    @Test func readsTheOtherSpellingsInUse() {
        let prefix = "http://www.bsi.bund.de/ecard/api/1.1/resultminor/"
        #expect(ECardAPIResult.Minor(uri: prefix + "dp#timeoutError") == .timeout)
        #expect(ECardAPIResult.Minor(uri: prefix + "dp#timeout") == .timeout)
        #expect(
            ECardAPIResult.Minor(uri: prefix + "sal/EAC#AgeVerificationFailedWarning") == .ageVerificationFailedWarning)
        #expect(
            ECardAPIResult.Minor(uri: prefix + "sal/EAC#DocumentValidityVerificationFailed")
                == .documentValidityVerificationFailed)
        #expect(ECardAPIResult.Minor(uri: prefix + "sal#noSuchThing") == nil)
    }

    /// A server's error result as AusweisApp reports it in AUTH (its ECardApiResult conversion
    /// through GlobalStatus): the minors it gives for failures of its own pass; every other one
    /// is its Paos_Generic_Server_Error, reported as unknownAPIFunction (measured with 1.26.2
    /// for the sal#securityConditionNotSatisfied of eid-testserver's failed passive
    /// authentication).
    @Test func aServersResultAsAusweisAppReportsIt() {
        let kept: Set<ECardAPIResult.Minor> = [
            .unknownError, .noPermission, .internalError, .parameterError, .communicationError,
            .trustedChannelEstablishmentFailed, .invalidCertificatePath, .cancellationByUser, .invalidKey,
            .documentValidityVerificationFailed,
        ]
        for minor in ECardAPIResult.Minor.allCases {
            let reported = ECardAPIResult.error(minor).reportedByClient
            if kept.contains(minor) {
                #expect(reported == .error(minor), "\(minor)")
            } else if minor == .incorrectParameter {
                #expect(reported == .error(.unknownError), "not in AusweisApp's table")
            } else {
                #expect(reported == .error(.unknownAPIFunction), "\(minor)")
            }
        }
        #expect(ECardAPIResult.error(.securityConditionNotSatisfied).reportedByClient == .error(.unknownAPIFunction))
        #expect(ECardAPIResult(major: .error).reportedByClient == .error(.unknownError))
        #expect(ECardAPIResult.ok.reportedByClient == .ok)
        let warning = ECardAPIResult(major: .warning, minor: .ageVerificationFailedWarning)
        #expect(warning.reportedByClient == warning)
    }
}
