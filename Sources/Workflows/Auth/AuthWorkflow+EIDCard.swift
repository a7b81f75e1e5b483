import Online
import SDK
import SmartCard

extension AuthWorkflow {
    /// The authentication with an eID card (`EIDAuthCardSession`, passive authentication against
    /// the configuration's CSCA), as every face runs it; tests give other card sessions through
    /// the designated initializer.
    public convenience init(
        configuration: Configuration, provider: CardReaderProvider, peer: SDKPeer, transport: PAOSTransport,
        refreshClient: RefreshAddressClient? = nil, readerName: String? = nil,
        timeouts: WorkflowTimeouts = .init()
    ) {
        let csca = configuration.csca
        self.init(
            configuration: configuration, provider: provider, peer: peer, transport: transport,
            refreshClient: refreshClient, readerName: readerName, timeouts: timeouts,
            openSession: { connection, info in EIDAuthCardSession(channel: connection, paceInfo: info, csca: csca) })
    }
}
