import SDK
import SmartCard

extension ChangePINWorkflow {
    /// Change PIN with an eID card's own PIN operations (`EIDCardSession`: PACE, then the PIN
    /// commands; `PINPadCardSession` on a reader with a PIN pad), as every face runs it; tests give other card sessions through the designated
    /// initializer.
    public convenience init(
        provider: CardReaderProvider, peer: SDKPeer, readerName: String? = nil,
        timeouts: WorkflowTimeouts = WorkflowTimeouts()
    ) {
        self.init(
            pace: PACEConfiguration(
                provider: provider, peer: peer, readerName: readerName, timeouts: timeouts,
                openSession: { connection, info in EIDCardSession(channel: connection, paceInfo: info) },
                openPINPadSession: { connection, info in PINPadCardSession(connection: connection, paceInfo: info) }))
    }
}
