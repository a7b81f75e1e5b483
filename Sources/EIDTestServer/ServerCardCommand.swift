import EAC
import SmartCard

/// A command the server sends to the card through Transmit, under its own secure messaging
/// (docs/protocol.md, "Transmit rounds"): select the eID application, VERIFY one authenticated
/// auxiliary datum, read one data group; change the PIN (the fault `transmit_change_pin`); read a
/// data group the effective CHAT does not grant (the fault `transmit_stop`).
enum ServerCardCommand: Equatable, Sendable {
    case selectEIDApplication
    case verify(AuthenticatedAuxiliaryData.Element)
    case readDataGroup(Int)
    /// READ BINARY of a data group the effective CHAT does not grant: the card refuses it (6982),
    /// which the AcceptableStatusCode of a read does not accept, so the client stops there.
    case readUngranted(Int)
    /// RESET RETRY COUNTER P1 02 with a new PIN: what a server without "PIN management" must not get through.
    case changePIN([UInt8])

    static let eIDApplication: [UInt8] = [0xE8, 0x07, 0x04, 0x00, 0x7F, 0x00, 0x07, 0x03, 0x02]

    var apdu: CommandAPDU {
        get throws(CommandAPDUError) {
            switch self {
            case .selectEIDApplication: return try .selectApplication(Self.eIDApplication)
            case .verify(let element):
                return try CommandAPDU(cla: 0x80, ins: 0x20, p1: 0x80, p2: 0x00, data: element.identifier.tlv.bytes)
            case .readDataGroup(let number), .readUngranted(let number):
                return try .readBinary(shortFileID: UInt8(number), ne: CommandAPDU.maxExtendedNe)
            case .changePIN(let newPIN): return try .resetRetryCounter(change: newPIN)
            }
        }
    }

    /// The status words that let the client go on with the batch (VERIFY's 6300 is an answer,
    /// not a failure; a data group may end with 6282).
    var acceptableStatusCodes: [[UInt8]] {
        switch self {
        case .selectEIDApplication: return [[0x90, 0x00]]
        case .verify: return [[0x90, 0x00], [0x63, 0x00]]
        case .readDataGroup, .readUngranted: return [[0x90, 0x00], [0x62, 0x82]]
        case .changePIN: return [[0x90, 0x00]]
        }
    }

    /// The AcceptableStatusCode elements a Transmit carries: the whole status words, or with
    /// `prefixes` their first bytes alone, once each (90, 63, 62: `transmit_status_prefix`).
    func acceptableStatusCodes(prefixes: Bool) -> [[UInt8]] {
        guard prefixes else { return acceptableStatusCodes }
        var firstBytes: [[UInt8]] = []
        for code in acceptableStatusCodes where !firstBytes.contains([code[0]]) { firstBytes.append([code[0]]) }
        return firstBytes
    }

    /// Whether `statusWord` starts with one of `codes` (TR-03112-6: what lets a batch go on).
    static func accepts(_ statusWord: StatusWord, codes: [[UInt8]]) -> Bool {
        let bytes = [statusWord.sw1, statusWord.sw2]
        return codes.contains { bytes.starts(with: $0) }
    }

    /// The name a failure report gives the command.
    var name: String {
        switch self {
        case .selectEIDApplication: return "SELECT eID application"
        case .verify(let element): return "VERIFY \(Self.verificationName(element))"
        case .readDataGroup(let number): return "READ BINARY DG\(number)"
        case .readUngranted(let number): return "READ BINARY DG\(number) (not granted)"
        case .changePIN: return "RESET RETRY COUNTER"
        }
    }

    /// The name of a verification in the session result.
    static func verificationName(_ element: AuthenticatedAuxiliaryData.Element) -> String {
        switch element {
        case .ageVerification: return "AgeVerification"
        case .communityID: return "AddressVerification"
        case .documentValidity: return "DocumentValidity"
        case .other(let oid, _): return oid.dotted
        }
    }
}
