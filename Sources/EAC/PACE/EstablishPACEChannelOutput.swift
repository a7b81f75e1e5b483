import SmartCard

/// What EstablishPACEChannel answers (PC/SC Part 10 AMD1, 2.6.16): the result code, then the
/// OutputData. Through SCardControl (FEATURE_EXECUTE_PACE) and through `PINPadConnection` the
/// answer is
///
/// | bytes | field |
/// | --- | --- |
/// | 4 | Result, little endian (`EstablishPACEChannelResultCode`) |
/// | 2 | lengthOutputData, little endian |
/// | lengthOutputData | OutputData |
///
/// and TR-03112-6's IFDEstablishPACEChannelResponse carries the same Result as `ResultCode` and
/// the OutputData as `OutputData` (hex each). OutputData:
///
/// | bytes | field |
/// | --- | --- |
/// | 2 | Statusbytes MSE:Set AT (SW1 SW2) |
/// | 2 | lengthEF_CardAccess, little endian |
/// | lengthEF_CardAccess | EF.CardAccess |
/// | 1 | lengthCARcurr |
/// | lengthCARcurr | CARcurr (ASCII) |
/// | 1 | lengthCARprev |
/// | lengthCARprev | CARprev (ASCII) |
/// | 2 | lengthIDicc, little endian |
/// | lengthIDicc | IDicc (ID_PICC: the x-coordinate of the card's ephemeral key) |
///
/// The last three fields come with PACE for EAC (a CHAT was given) and may be left off at a field
/// boundary otherwise; after a failure the OutputData may end after any field, or be empty.
public struct EstablishPACEChannelOutput: Equatable, Sendable {
    public var result: EstablishPACEChannelResultCode
    /// The card's answer to MSE:Set AT (before the password was checked); nil when not told.
    public var mseSetATStatus: StatusWord?
    public var efCardAccess: [UInt8]
    /// CAR 1: the most recent CVCA the card trusts.
    public var currentCAR: String?
    /// CAR 2: the previous one.
    public var previousCAR: String?
    public var idICC: [UInt8]

    public init(
        result: EstablishPACEChannelResultCode, mseSetATStatus: StatusWord? = nil, efCardAccess: [UInt8] = [],
        currentCAR: String? = nil, previousCAR: String? = nil, idICC: [UInt8] = []
    ) {
        self.result = result
        self.mseSetATStatus = mseSetATStatus
        self.efCardAccess = efCardAccess
        self.currentCAR = currentCAR
        self.previousCAR = previousCAR
        self.idICC = idICC
    }

    /// Reads the whole answer: Result, lengthOutputData, OutputData, nothing after it.
    public init(response bytes: [UInt8]) throws(PINPadStructureError) {
        var reader = PINPadFieldReader(bytes)
        let result = EstablishPACEChannelResultCode(rawValue: try reader.uint32("Result"))
        let outputData = try reader.longField("OutputData")
        try reader.requireEnd()
        try self.init(result: result, outputData: outputData)
    }

    /// Reads the OutputData that came with `result` (IFDEstablishPACEChannelResponse's two fields).
    public init(result: EstablishPACEChannelResultCode, outputData: [UInt8]) throws(PINPadStructureError) {
        self.init(result: result)
        var reader = PINPadFieldReader(outputData)
        let succeeded = result == .noError
        // A failed PACE may tell nothing more; a successful one tells at least MSE:Set AT and EF.CardAccess.
        if reader.isAtEnd && !succeeded { return }
        let sw = try reader.take(2, "Statusbytes MSE:Set AT")
        mseSetATStatus = StatusWord(sw1: sw[0], sw2: sw[1])
        if reader.isAtEnd && !succeeded { return }
        efCardAccess = try reader.longField("EF.CardAccess")
        if reader.isAtEnd { return }
        currentCAR = try Self.car(reader.shortField("CARcurr"), "CARcurr")
        if reader.isAtEnd { return }
        previousCAR = try Self.car(reader.shortField("CARprev"), "CARprev")
        if reader.isAtEnd { return }
        idICC = try reader.longField("IDicc")
        try reader.requireEnd()
    }

    /// An empty CAR field is no CAR; any other must be printable ASCII.
    static func car(_ bytes: [UInt8], _ field: String) throws(PINPadStructureError) -> String? {
        if bytes.isEmpty { return nil }
        guard bytes.allSatisfy({ (0x20...0x7E).contains($0) }) else { throw .carNotPrintable(field: field) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The OutputData: the EAC fields (CARs, IDicc) only when one of them is there.
    public func outputData() throws(PINPadStructureError) -> [UInt8] {
        let sw = mseSetATStatus ?? StatusWord(rawValue: 0)
        var out = [sw.sw1, sw.sw2] + (try PINPadFieldWriter.longField(efCardAccess, "EF.CardAccess"))
        if currentCAR != nil || previousCAR != nil || !idICC.isEmpty {
            out += try PINPadFieldWriter.shortField(Array((currentCAR ?? "").utf8), "CARcurr")
            out += try PINPadFieldWriter.shortField(Array((previousCAR ?? "").utf8), "CARprev")
            out += try PINPadFieldWriter.longField(idICC, "IDicc")
        }
        return out
    }

    /// The whole answer: Result, lengthOutputData, OutputData.
    public func response() throws(PINPadStructureError) -> [UInt8] {
        PINPadFieldWriter.uint32(result.rawValue) + (try PINPadFieldWriter.longField(outputData(), "OutputData"))
    }
}
