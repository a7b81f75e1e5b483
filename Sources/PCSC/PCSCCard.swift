import CPCSC
import Dispatch
import SmartCard

#if canImport(Glibc)
import Glibc
#endif

/// A connected card: a `CardChannel` over SCardTransmit.
///
/// SCardTransmit has no timeout of its own, and pcsc-lite holds the connection's context locked
/// while it waits, so a reader (or a software card) that stops answering would hang eid for
/// good. Each card therefore has a PC/SC context of its own, and every transmit runs on the
/// card's worker queue while the caller waits at most `transmitTimeout` seconds. When that
/// passes, the connection is given up: `CardError.timeout` is thrown, and neither the handle
/// nor its context is touched again (the blocked call keeps them; the process ending, or pcscd
/// when the reader comes back, cleans up). No other connection shares that context, so the
/// rest of eid goes on working.
public final class PCSCCard: CardChannel {
    let handle: SCARDHANDLE
    /// The context this connection alone uses (released with it, or left alone when hung).
    let context: SCARDCONTEXT
    let protocolT1: Bool
    public let reader: String
    private var connected = true
    private let worker = DispatchQueue(label: "eid.pcsc.transmit")

    /// Seconds one APDU may take. An eID card answers every command eid sends in well under a
    /// second; a reader that needs more than this is not answering.
    public var transmitTimeout: Double = 10

    /// Number of APDUs transmitted, for diagnostics and benchmarks.
    public private(set) var transmitCount = 0

    init(handle: SCARDHANDLE, context: SCARDCONTEXT, protocolT1: Bool, reader: String) {
        self.handle = handle
        self.context = context
        self.protocolT1 = protocolT1
        self.reader = reader
    }

    deinit { disconnect() }

    /// T=1 carries extended length APDUs; whether the card takes them is the card's business
    /// (the eID card does).
    public var supportsExtendedLength: Bool { protocolT1 }

    /// The result of one SCardTransmit, handed from the worker to the waiting caller.
    private final class Exchange: @unchecked Sendable {
        var rv: LONG = 0
        var response: [UInt8] = []
        /// An answer too short to be one came, and pcscd then saw the card gone.
        var cardGone = false
        let done = DispatchSemaphore(value: 0)
    }

    /// After an answer of fewer than two bytes (vpcd gives an empty one when its card leaves in
    /// the middle of a command): whether pcscd sees the card gone within `within` seconds.
    /// Runs on the worker, which alone uses the handle.
    private static func cardGone(_ handle: SCARDHANDLE, within seconds: Double) -> Bool {
        let end = Deadline(secondsFromNow: seconds)
        while true {
            var state: DWORD = 0
            var proto: DWORD = 0
            var readerLength: DWORD = 0
            var atrLength: DWORD = 0
            let rv = SCardStatus(handle, nil, &readerLength, &state, &proto, nil, &atrLength)
            if rv != SCARD_S_SUCCESS && rv != SCARD_E_INSUFFICIENT_BUFFER {
                switch PCSCError(code: UInt32(truncatingIfNeeded: rv), function: "SCardStatus") {
                case .cardRemoved, .cardReset, .readerUnavailable: return true
                default: return false
                }
            }
            if state & DWORD(SCARD_ABSENT) != 0 { return true }
            if end.remaining <= 0 { return false }
            usleep(50_000)
        }
    }

    public func transmit(_ command: CommandAPDU) throws -> ResponseAPDU {
        try ResponseAPDU(bytes: transmit(encoded: command.bytes))
    }

    /// `bytes` go to SCardTransmit as they are; the response comes back as the card gave it
    /// (joined with GET RESPONSE when the card says 61xx).
    public func transmit(encoded bytes: [UInt8]) throws -> [UInt8] {
        guard connected else { throw CardError.transportFailed("the connection to the card is closed") }
        let exchange = Exchange()
        let handle = self.handle
        let t1 = protocolT1
        transmitCount += 1
        worker.async {
            let pci = t1 ? cpcsc_pci_t1() : cpcsc_pci_t0()
            var out = [UInt8](repeating: 0, count: Int(cpcsc_max_buffer_size_extended()))
            var length = DWORD(out.count)
            exchange.rv = SCardTransmit(handle, pci, bytes, DWORD(bytes.count), nil, &out, &length)
            exchange.response = Array(out.prefix(Int(min(length, DWORD(out.count)))))
            if exchange.rv == SCARD_S_SUCCESS && exchange.response.count < 2 {
                exchange.cardGone = PCSCCard.cardGone(handle, within: 2)
            }
            exchange.done.signal()
        }
        guard exchange.done.wait(timeout: .now() + transmitTimeout) == .success else {
            // Given up: the worker stays blocked in pcsc-lite with this handle and context.
            connected = false
            abandoned = true
            throw CardError.timeout
        }
        let rv = exchange.rv
        guard rv == SCARD_S_SUCCESS else {
            switch PCSCError(code: UInt32(truncatingIfNeeded: rv), function: "SCardTransmit", reader: reader) {
            case .cardRemoved, .cardReset, .readerUnavailable: throw CardError.cardRemoved
            case let other: throw CardError.transportFailed(other.description)
            }
        }
        if exchange.cardGone { throw CardError.cardRemoved }
        var response = try ResponseAPDU(bytes: exchange.response)
        guard response.statusWord.bytesRemaining != nil else { return exchange.response }
        // T=0 and some readers answer 61xx: fetch the rest with GET RESPONSE (at most as much
        // as an extended response holds, so a card that always says "more" cannot loop us).
        var rounds = 0
        while let more = response.statusWord.bytesRemaining {
            rounds += 1
            guard rounds <= 256 else { throw CardError.malformedResponse("endless GET RESPONSE (61xx)") }
            let next = try transmit(CommandAPDU(ins: 0xC0, p1: 0, p2: 0, ne: more))
            response = ResponseAPDU(data: response.data + next.data, statusWord: next.statusWord)
        }
        return response.bytes
    }

    /// Sends a control code to the reader (SCardControl), e.g. a part 10 feature, and waits at most
    /// `timeout` seconds for its answer (a PIN-pad reader answers when the user has typed). When
    /// that passes the connection is given up as with a hung transmit: `CardError.timeout`.
    public func control(code: UInt32, data: [UInt8], timeout: Double) throws -> [UInt8] {
        guard connected else { throw CardError.transportFailed("the connection to the card is closed") }
        let handle = self.handle
        let answer = BoundedCall.run(
            seconds: timeout,
            { () -> ControlAnswer in
                var out = [UInt8](repeating: 0, count: 4096)
                var length: DWORD = 0
                let rv = SCardControl(handle, DWORD(code), data, DWORD(data.count), &out, DWORD(out.count), &length)
                return ControlAnswer(rv: rv, bytes: Array(out.prefix(Int(min(length, DWORD(out.count))))))
            }, abandon: { _ in })
        guard let answer else {
            connected = false
            abandoned = true
            throw CardError.timeout
        }
        guard answer.rv == SCARD_S_SUCCESS else {
            switch PCSCError(code: UInt32(truncatingIfNeeded: answer.rv), function: "SCardControl", reader: reader) {
            case .cardRemoved, .cardReset, .readerUnavailable: throw CardError.cardRemoved
            case let other: throw CardError.transportFailed(other.description)
            }
        }
        return answer.bytes
    }

    private struct ControlAnswer: Sendable {
        var rv: LONG
        var bytes: [UInt8]
    }

    /// Ends the connection; leaves the card as it is (the next program gets it powered), or
    /// resets it so that no security state of this session outlives it.
    public func disconnect(resetCard: Bool = false) {
        guard connected else {
            if !abandoned && !released {
                released = true
                SCardReleaseContext(context)
            }
            return
        }
        connected = false
        SCardDisconnect(handle, DWORD(resetCard ? SCARD_RESET_CARD : SCARD_LEAVE_CARD))
        released = true
        SCardReleaseContext(context)
    }

    /// A transmit timed out: the handle and context belong to the blocked call now.
    private var abandoned = false
    private var released = false
}
