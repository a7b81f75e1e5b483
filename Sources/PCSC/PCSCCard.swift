import CPCSC
import CardAccess

/// A connected card: a `CardChannel` over SCardTransmit.
public final class PCSCCard: CardChannel {
    let handle: SCARDHANDLE
    let protocolT1: Bool
    public let reader: String
    private var connected = true

    /// Number of APDUs transmitted, for diagnostics and benchmarks.
    public private(set) var transmitCount = 0

    init(handle: SCARDHANDLE, protocolT1: Bool, reader: String) {
        self.handle = handle
        self.protocolT1 = protocolT1
        self.reader = reader
    }

    deinit { disconnect() }

    /// T=1 carries extended length APDUs; whether the card takes them is the card's business
    /// (the eID card does).
    public var supportsExtendedLength: Bool { protocolT1 }

    public func transmit(_ command: CommandAPDU) throws -> ResponseAPDU {
        guard connected else { throw CardError.transportFailed("the connection to the card is closed") }
        let bytes = command.bytes
        var out = [UInt8](repeating: 0, count: Int(cpcsc_max_buffer_size_extended()))
        var length = DWORD(out.count)
        let pci = protocolT1 ? cpcsc_pci_t1() : cpcsc_pci_t0()
        transmitCount += 1
        let rv = SCardTransmit(handle, pci, bytes, DWORD(bytes.count), nil, &out, &length)
        guard rv == SCARD_S_SUCCESS else {
            switch PCSCError(code: UInt32(truncatingIfNeeded: rv), function: "SCardTransmit", reader: reader) {
            case .cardRemoved, .cardReset, .readerUnavailable: throw CardError.cardRemoved
            case let other: throw CardError.transportFailed(other.description)
            }
        }
        var response = try ResponseAPDU(bytes: Array(out.prefix(Int(length))))
        // T=0 and some readers answer 61xx: fetch the rest with GET RESPONSE (at most as much
        // as an extended response holds, so a card that always says "more" cannot loop us).
        var rounds = 0
        while let more = response.statusWord.bytesRemaining {
            rounds += 1
            guard rounds <= 256 else { throw CardError.malformedResponse("endless GET RESPONSE (61xx)") }
            let next = try transmit(CommandAPDU(ins: 0xC0, p1: 0, p2: 0, ne: more))
            response = ResponseAPDU(data: response.data + next.data, statusWord: next.statusWord)
        }
        return response
    }

    /// Sends a control code to the reader (SCardControl), e.g. a part 10 feature.
    public func control(code: UInt32, data: [UInt8]) throws -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 1024)
        var length: DWORD = 0
        let rv = SCardControl(handle, DWORD(code), data, DWORD(data.count), &out, DWORD(out.count), &length)
        guard rv == SCARD_S_SUCCESS else { throw PCSCError(code: UInt32(truncatingIfNeeded: rv), function: "SCardControl") }
        return Array(out.prefix(Int(length)))
    }

    /// Ends the connection; leaves the card as it is (the next program gets it powered), or
    /// resets it so that no security state of this session outlives it.
    public func disconnect(resetCard: Bool = false) {
        guard connected else { return }
        connected = false
        SCardDisconnect(handle, DWORD(resetCard ? SCARD_RESET_CARD : SCARD_LEAVE_CARD))
    }
}
