import CPCSC
import Glibc
import SmartCard

/// A connection to the PC/SC service (pcscd). One per thread of work; `cancel()` may be called
/// from any thread to end a wait.
public final class PCSCContext {
    let handle: SCARDCONTEXT

    /// The reader name pcsc-lite reports reader additions and removals on.
    static let plugAndPlayReader = "\\\\?PnP?\\Notification"

    public init() throws {
        var h: SCARDCONTEXT = 0
        let rv = SCardEstablishContext(DWORD(SCARD_SCOPE_SYSTEM), nil, nil, &h)
        guard rv == SCARD_S_SUCCESS else {
            throw PCSCError(code: UInt32(truncatingIfNeeded: rv), function: "SCardEstablishContext")
        }
        handle = h
    }

    deinit { SCardReleaseContext(handle) }

    /// The names of the connected readers; empty when there are none.
    public func readerNames() throws -> [String] {
        var buffer: [CChar] = []
        var rv: LONG = 0
        // A reader plugged in between asking the size and reading the list makes the buffer too
        // small (SCARD_E_INSUFFICIENT_BUFFER, 80100008): ask again.
        for _ in 0..<3 {
            var length: DWORD = 0
            rv = SCardListReaders(handle, nil, nil, &length)
            if UInt32(truncatingIfNeeded: rv) == 0x8010_002E { return [] }
            guard rv == SCARD_S_SUCCESS else { break }
            buffer = [CChar](repeating: 0, count: Int(length))
            rv = SCardListReaders(handle, nil, &buffer, &length)
            if UInt32(truncatingIfNeeded: rv) != 0x8010_0008 { break }
        }
        if UInt32(truncatingIfNeeded: rv) == 0x8010_002E { return [] }
        guard rv == SCARD_S_SUCCESS else {
            throw PCSCError(code: UInt32(truncatingIfNeeded: rv), function: "SCardListReaders")
        }
        // A multi-string: names separated by NUL, ended by an empty name.
        return buffer.split(separator: 0, omittingEmptySubsequences: true).map {
            String(decoding: $0.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
    }

    /// The current state of each named reader (no waiting).
    public func states(of readers: [String]) throws -> [ReaderState] {
        var states = readers.map { ReaderState(name: $0) }
        _ = try waitForChange(&states, timeoutMilliseconds: 0)
        return states
    }

    /// Waits up to `timeoutMilliseconds` until one of `states` differs from what the caller
    /// knows (its `eventFlags`), or until the set of readers changes when
    /// `watchReaderList` is true. Updates `states` and returns whether something changed.
    /// `cancel()` from another thread ends the wait with `PCSCError.cancelled`.
    @discardableResult
    public func waitForChange(
        _ states: inout [ReaderState], timeoutMilliseconds: UInt32,
        watchReaderList: Bool = false
    ) throws -> Bool {
        var all = states
        if watchReaderList {
            all.append(ReaderState(name: PCSCContext.plugAndPlayReader, known: UInt32(states.count) << 16))
        }
        guard !all.isEmpty else { return false }
        // Keep the C strings alive for the duration of the call.
        let names = all.map { strdup($0.name)! }
        defer { for name in names { free(name) } }
        var raw = all.enumerated().map { i, state -> SCARD_READERSTATE in
            var r = SCARD_READERSTATE()
            r.szReader = UnsafePointer(names[i])
            r.dwCurrentState = DWORD(state.eventFlags)
            return r
        }
        let rv = SCardGetStatusChange(handle, DWORD(timeoutMilliseconds), &raw, DWORD(raw.count))
        let code = UInt32(truncatingIfNeeded: rv)
        if code == 0x8010_000A { return false }  // SCARD_E_TIMEOUT: nothing changed
        guard rv == SCARD_S_SUCCESS else { throw PCSCError(code: code, function: "SCardGetStatusChange") }
        var changed = false
        for i in 0..<states.count {
            let event = UInt32(truncatingIfNeeded: raw[i].dwEventState)
            if event & UInt32(SCARD_STATE_CHANGED) != 0 { changed = true }
            let atrLength = min(Int(raw[i].cbAtr), 33)
            let atr = withUnsafeBytes(of: raw[i].rgbAtr) { Array($0.prefix(atrLength)) }
            states[i].update(eventFlags: event & ~UInt32(SCARD_STATE_CHANGED), atr: atr)
        }
        if watchReaderList, let pnp = raw.last,
            UInt32(truncatingIfNeeded: pnp.dwEventState) & UInt32(SCARD_STATE_CHANGED) != 0
        {
            changed = true
        }
        return changed
    }

    /// Ends a `waitForChange` running on another thread.
    public func cancel() { SCardCancel(handle) }

    /// Connects to the card in `reader` (T=1 preferred, T=0 accepted). An exclusive
    /// connection keeps every other program off the card until it ends: a card session with
    /// secure messaging needs that, since one foreign command ends the card's secure messaging.
    ///
    /// The connection gets a PC/SC context of its own, so that a card that stops answering
    /// (see `PCSCCard.transmitTimeout`) blocks nothing but itself.
    public func connect(reader: String, exclusive: Bool = false) throws -> PCSCCard {
        var own: SCARDCONTEXT = 0
        var rv = SCardEstablishContext(DWORD(SCARD_SCOPE_SYSTEM), nil, nil, &own)
        guard rv == SCARD_S_SUCCESS else {
            throw PCSCError(code: UInt32(truncatingIfNeeded: rv), function: "SCardEstablishContext")
        }
        let share = DWORD(exclusive ? SCARD_SHARE_EXCLUSIVE : SCARD_SHARE_SHARED)
        let context = own
        // SCardConnect has no timeout (pcscd powers the card up first): bounded, on `own` alone.
        let connected = BoundedCall.run(
            seconds: Self.callTimeout,
            { () -> Connection in
                var card: SCARDHANDLE = 0
                var protocolUsed: DWORD = 0
                let rv = SCardConnect(
                    context, reader, share, DWORD(SCARD_PROTOCOL_T1 | SCARD_PROTOCOL_T0), &card, &protocolUsed)
                return Connection(rv: rv, card: card, protocolUsed: protocolUsed)
            },
            abandon: { late in
                if late.rv == SCARD_S_SUCCESS { SCardDisconnect(late.card, DWORD(SCARD_LEAVE_CARD)) }
                SCardReleaseContext(context)
            })
        guard let connected else { throw PCSCError.timeout }
        rv = connected.rv
        let card = connected.card
        let protocolUsed = connected.protocolUsed
        guard rv == SCARD_S_SUCCESS else {
            SCardReleaseContext(own)
            throw PCSCError(code: UInt32(truncatingIfNeeded: rv), function: "SCardConnect", reader: reader)
        }
        return PCSCCard(
            handle: card, context: own, protocolT1: protocolUsed == DWORD(SCARD_PROTOCOL_T1), reader: reader)
    }

    /// The PC/SC part 10 features of `reader`, asked in direct mode (no card needed); nil when they
    /// could not be asked (no context, the direct connection refused, the driver did not answer the
    /// feature request or not within `callTimeout`), which callers take as none. The request runs on
    /// a context of its own, so that a hung driver blocks nothing else.
    public func features(of reader: String) -> ReaderFeatures? {
        var own: SCARDCONTEXT = 0
        guard SCardEstablishContext(DWORD(SCARD_SCOPE_SYSTEM), nil, nil, &own) == SCARD_S_SUCCESS else {
            return nil
        }
        let context = own
        let response = BoundedCall.run(
            seconds: Self.callTimeout,
            { () -> [UInt8]? in
                var card: SCARDHANDLE = 0
                var protocolUsed: DWORD = 0
                guard
                    SCardConnect(context, reader, DWORD(SCARD_SHARE_DIRECT), 0, &card, &protocolUsed) == SCARD_S_SUCCESS
                else { return nil }
                defer { SCardDisconnect(card, DWORD(SCARD_LEAVE_CARD)) }
                var out = [UInt8](repeating: 0, count: 256)
                var length: DWORD = 0
                let rv = SCardControl(card, cpcsc_feature_request_code(), nil, 0, &out, DWORD(out.count), &length)
                return rv == SCARD_S_SUCCESS ? Array(out.prefix(Int(length))) : nil
            },
            abandon: { _ in SCardReleaseContext(context) })
        guard let response else { return nil }  // given up: `own` is the hung call's
        SCardReleaseContext(own)
        return response.map { ReaderFeatures(featureResponse: $0) }
    }

    /// Seconds SCardConnect and the feature request may take before the reader counts as hung
    /// (as `PCSCCard.transmitTimeout` for one APDU).
    public static let callTimeout: Double = 10

    /// What SCardConnect gave, handed from the worker.
    private struct Connection: Sendable {
        let rv: LONG
        let card: SCARDHANDLE
        let protocolUsed: DWORD
    }
}
