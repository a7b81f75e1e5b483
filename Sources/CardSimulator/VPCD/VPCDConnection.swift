import SmartCard

#if canImport(Glibc)
import Glibc
#endif

/// Plugs a `SimulatedEIDCard` into vpcd, the virtual reader driver of vsmartcard inside pcscd.
/// The card is the TCP client. Each message either way is a 2-byte big-endian length and a
/// payload; a 1-byte payload from vpcd is a control code (0 power off, 1 power on, 2 reset,
/// 4 get ATR, answered with the ATR), anything longer a command APDU, answered with the
/// response APDU.
///
/// `run()` connects, serves, and reconnects when vpcd is not there or goes away (backoff
/// 0.2 s doubling to 5 s, reset after each connection), until `stop()`; every wait polls the
/// stop flag at least every 0.1 s. Losing the connection powers the card off (card removed).
public final class VPCDConnection: @unchecked Sendable {
    public struct RetryPolicy: Equatable, Sendable {
        public var initialDelay: Double
        public var maximumDelay: Double
        /// Seconds a connect attempt may take.
        public var connectTimeout: Double

        public init(initialDelay: Double = 0.2, maximumDelay: Double = 5, connectTimeout: Double = 5) {
            self.initialDelay = initialDelay
            self.maximumDelay = maximumDelay
            self.connectTimeout = connectTimeout
        }
    }

    public let endpoint: VPCDEndpoint
    public let card: SimulatedEIDCard
    public let retry: RetryPolicy
    private let onEvent: @Sendable (VPCDEvent) -> Void
    private let lock = Lock()
    private var stopRequested = false
    /// For tests only: after this many command APDUs the card stops answering (it stays in
    /// the reader and keeps the connection), as a hung reader or card would.
    public var stallAfter: Int?
    /// For tests only: after this many command APDUs the card leaves the reader: the next
    /// command is not answered, the connection to vpcd is closed and `run()` returns, as when
    /// the card is pulled out in the middle of a session.
    public var vanishAfter: Int?
    private var commandsAnswered = 0

    public init(
        endpoint: VPCDEndpoint = .default, card: SimulatedEIDCard, retry: RetryPolicy = RetryPolicy(),
        onEvent: @escaping @Sendable (VPCDEvent) -> Void = { _ in }
    ) {
        self.endpoint = endpoint
        self.card = card
        self.retry = retry
        self.onEvent = onEvent
    }

    /// Asks `run()` to return; safe from any thread (and from a signal source).
    public func stop() { lock.withLock { stopRequested = true } }

    public var isStopped: Bool { lock.withLock { stopRequested } }

    /// Connects and serves until `stop()`.
    public func run() {
        var delay = retry.initialDelay
        let shouldStop = { [unowned self] in self.isStopped }
        while !isStopped {
            let socket: TCPSocket
            do {
                socket = try TCPSocket.connect(
                    host: endpoint.host, port: endpoint.port, timeout: retry.connectTimeout, shouldStop: shouldStop)
            } catch SocketError.stopped {
                break
            } catch {
                onEvent(.connectFailed(endpoint, reason: VPCDConnection.reason(error), retryIn: delay))
                pause(delay)
                delay = min(delay * 2, retry.maximumDelay)
                continue
            }
            delay = retry.initialDelay
            onEvent(.connected(endpoint))
            do {
                try serve(socket, shouldStop: shouldStop)
            } catch SocketError.stopped {
                card.powerOff()
                break
            } catch is CardVanished {
                // The socket closes when it goes out of scope: vpcd's reader is empty.
                card.powerOff()
                onEvent(.vanished(after: commandsAnswered))
                break
            } catch {
                card.powerOff()
                onEvent(.disconnected(endpoint, retryIn: delay))
                pause(delay)
                delay = min(delay * 2, retry.maximumDelay)
            }
        }
    }

    private func serve(_ socket: TCPSocket, shouldStop: () -> Bool) throws {
        while true {
            let header = try socket.read(count: 2, shouldStop: shouldStop)
            let length = Int(header[0]) << 8 | Int(header[1])
            let payload = length == 0 ? [] : try socket.read(count: length, shouldStop: shouldStop)
            var answer: [UInt8]?
            if payload.count == 1 {
                switch payload[0] {
                case 0: card.powerOff()
                case 1: card.powerOn()
                case 2: card.reset()
                case 4: answer = card.atr
                default: onEvent(.unknownControlCode(payload[0]))
                }
            } else {
                // Every frame but a control byte is a command, an empty one too (a terminal that
                // could not encode its command sends one): it gets the card's 6700, not silence,
                // which would leave vpcd, and the terminal, waiting forever.
                if let vanishAfter, commandsAnswered >= vanishAfter { throw CardVanished() }
                if let stallAfter, commandsAnswered >= stallAfter { continue }
                commandsAnswered += 1
                var response = card.respond(to: payload)
                // A card without power does not answer, and a frame holds at most 65535 bytes;
                // vpcd expects some answer: "no precise diagnosis".
                if response.isEmpty || response.count > 0xFFFF { response = [0x6F, 0x00] }
                answer = response
            }
            if let answer {
                try socket.write(
                    [UInt8(answer.count >> 8), UInt8(answer.count & 0xFF)] + answer, shouldStop: shouldStop)
            }
        }
    }

    /// Sleeps `seconds` in slices, returning early on stop.
    private func pause(_ seconds: Double) {
        let end = Deadline(secondsFromNow: seconds)
        while !isStopped {
            let left = end.remaining
            if left <= 0 { return }
            usleep(UInt32(min(left, 0.05) * 1_000_000))
        }
    }

    /// `vanishAfter` was reached.
    private struct CardVanished: Error {}

    static func reason(_ error: Error) -> String {
        switch error as? SocketError {
        case .refused?: return "refused the connection"
        case .unresolvable(let host)?: return "cannot be reached: no address for \(host)"
        case .failed(let why)?: return "cannot be reached: \(why)"
        default: return "cannot be reached"
        }
    }
}
