import Online
import SDK
import SmartCard

extension AuthWorkflow {
    /// The authentication with an eID card (`EIDAuthCardSession`, passive authentication against
    /// the configuration's CSCA), as every face runs it; tests give other card sessions through
    /// the designated initializer.
    public convenience init(
        configuration: Configuration, fetch: @escaping TcTokenFetcher, provider: CardReaderProvider, peer: SDKPeer,
        readerName: String? = nil, timeouts: WorkflowTimeouts = .init()
    ) {
        let csca = configuration.csca
        let pace = PACEConfiguration<AuthCard>(
            provider: provider, peer: peer, readerName: readerName, timeouts: timeouts,
            openSession: { connection, info in EIDAuthCardSession(channel: connection, paceInfo: info, csca: csca) },
            openPINPadSession: { connection, info in EIDAuthCardSession(pinPad: connection, paceInfo: info, csca: csca)
            })
        self.init(configuration: configuration, fetch: fetch, pace: pace)
    }
}
