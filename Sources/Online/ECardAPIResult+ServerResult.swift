extension ECardAPIResult {
    /// The result an eID client reports for this error result of the eID server (its
    /// StartPAOSResponse), as AusweisApp reports it in the SDK's AUTH message: a minor that
    /// AusweisApp also gives for failures of its own keeps its meaning (unknownError,
    /// noPermission, internalError, parameterError, communicationError,
    /// trustedChannelEstablishmentFailed, invalidCertificatePath, sal#cancellationByUser,
    /// invalidKey, DocumentValidityVerificationFailed); any other minor is AusweisApp's
    /// Paos_Generic_Server_Error, which it reports as al/common#unknownAPIFunction (e.g. the
    /// sal#securityConditionNotSatisfied of a failed passive authentication; measured with
    /// AusweisApp2 1.26.2); an error without a minor, or with one outside TR-03112's table,
    /// as al/common#unknownError. Other majors stay as they are.
    public var reportedByClient: ECardAPIResult {
        guard major == .error else { return self }
        guard let minor else { return .error(.unknownError) }
        switch minor {
        case .unknownError, .noPermission, .internalError, .parameterError, .communicationError,
            .trustedChannelEstablishmentFailed, .invalidCertificatePath, .cancellationByUser, .invalidKey,
            .documentValidityVerificationFailed:
            return self
        case .incorrectParameter:
            return .error(.unknownError)
        case .unknownAPIFunction, .notInitialized, .warningConnectionDisconnected, .sessionTerminatedWarning, .timeout,
            .dispatcherCommunicationError, .nodeNotReachable, .unknownChannelHandle, .unknownCipherSuite,
            .unknownProtocol, .unknownWebserviceBinding, .keyGenerationNotPossible, .securityConditionNotSatisfied,
            .ageVerificationFailedWarning, .communityVerificationFailedWarning, .readerCancellationByUser,
            .readerTimeoutError, .invalidSlotHandle, .noCard, .unknownSlot, .ifdSharingViolation, .repeatedDataMismatch,
            .unknownPINFormat:
            return .error(.unknownAPIFunction)
        }
    }
}
