/// The fuzz targets of `make fuzz` (libFuzzer, one executable `fuzz-<name>` each) and of
/// FuzzCorpusTests, which runs every target over its corpus (Tests/Fuzz/Corpus/<name>/) in
/// `make test`. Each takes arbitrary bytes from outside and must neither crash nor hang: bad
/// input ends in a typed error that the target drops.
public enum FuzzTarget: String, CaseIterable, Sendable {
    /// PAOS messages (SOAP envelopes through libxml2), as client and server receive them.
    case paos
    /// TcToken documents, as the client fetches them.
    case tcToken = "tc-token"
    /// EAC1InputType through TerminalCheck: CV certificates, description, CHATs, auxiliary data.
    case terminalCheck = "terminal-check"
    /// SecurityInfos of EF.CardAccess and EF.CardSecurity (CMS SignedData).
    case securityInfos = "security-infos"
    /// eid-sim's APDU handling behind secure messaging after PACE.
    case cardSimulator = "card-simulator"
    /// eid-testserver's PAOS session state machine.
    case serverSession = "server-session"
    /// The OrderedJSON parser (SDK commands, eid-sim profiles).
    case orderedJSON = "ordered-json"
    /// BER-TLV (every card answer).
    case tlv

    /// Runs the target over one input.
    public func run(_ data: [UInt8]) {
        switch self {
        case .paos: PAOSFuzzing.run(data)
        case .tcToken: TcTokenFuzzing.run(data)
        case .terminalCheck: TerminalCheckFuzzing.run(data)
        case .securityInfos: SecurityInfosFuzzing.run(data)
        case .cardSimulator: CardSimulatorFuzzing.run(data)
        case .serverSession: ServerSessionFuzzing.run(data)
        case .orderedJSON: OrderedJSONFuzzing.run(data)
        case .tlv: TLVFuzzing.run(data)
        }
    }

    /// libFuzzer's entry (LLVMFuzzerTestOneInput): the input as bytes; always 0 (keep it).
    public func run(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
        run(size > 0 ? Array(UnsafeBufferPointer(start: data, count: size)) : [])
        return 0
    }
}
