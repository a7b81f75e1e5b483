import NIOCore
import NIOHTTP1
import NIOPosix
import NIOWebSocket
import SmartCard

/// A WebSocket over TLS 1.2 to a phone as card reader (TR-03112-6 IFD, `wss://`), as AusweisApp's remote IFD
/// client opens one: OpenSSL's TLS through memory BIOs (`OpenSSLClientHandler`, `IFDTLSContext`), the upgrade
/// and frames of NIOWebSocket, text messages of JSON. Blocking, for callers such as `CardChannel.transmit`;
/// every wait is bounded. Safe to use from one thread for sending and another for receiving.
public final class IFDWebSocket: Sendable {
    private let channel: any Channel
    private let state: IFDChannelState

    /// The phone's certificate (DER), as it showed it in the handshake: in pairing, what the caller stores
    /// and pins (its SHA-256) from then on.
    public let peerCertificateDER: [UInt8]

    /// The largest message taken from the phone (an IFDTransmit of an extended APDU in hex is far smaller).
    static let maximumMessageSize = 1 << 20
    /// AusweisApp's WebSocketChannel: a ping after 5 s, a pong within the next 5 s.
    static let keepAlive = 5.0
    /// How long `close` waits for the phone's close frame.
    static let closeWait = 1.0

    private init(channel: any Channel, state: IFDChannelState, peerCertificateDER: [UInt8]) {
        self.channel = channel
        self.state = state
        self.peerCertificateDER = peerCertificateDER
    }

    deinit { channel.close(promise: nil) }

    /// Connects to `url` (`wss://HOST:PORT`, as the phone announces it), does the TLS handshake of `security` with
    /// eid's `identity` as the client certificate, checks the phone (`IFDPeerCheck`) and upgrades to a
    /// WebSocket; all within `timeout` seconds.
    public static func open(
        url: String, security: IFDTLSSecurity, identity: IFDClientIdentity, timeout: Double
    ) throws(IFDTransportError) -> IFDWebSocket {
        try open(url: url, security: security, identity: identity, timeout: timeout, keepAlive: keepAlive)
    }

    /// `open` with another keep-alive time (tests).
    static func open(
        url: String, security: IFDTLSSecurity, identity: IFDClientIdentity, timeout: Double, keepAlive: Double
    ) throws(IFDTransportError) -> IFDWebSocket {
        let address = try IFDAddress(url)
        let deadline = Deadline(secondsFromNow: timeout)
        let tls = try IFDTLSContext(security: security, identity: identity)
        let state = IFDChannelState()
        let connect = ClientBootstrap(group: IFDEventLoop.group)
            .connectTimeout(.milliseconds(Int64(max(timeout, 0.001) * 1000)))
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try configure(
                        channel.pipeline.syncOperations, tls: tls, state: state, address: address,
                        keepAlive: keepAlive)
                }
            }
            .connect(host: address.host, port: address.port)
        let connected = Locked<(any Channel)?>(nil)
        connect.whenComplete { result in
            switch result {
            case .success(let channel):
                connected.withLock { $0 = channel }
                channel.closeFuture.whenComplete { _ in state.channelClosed() }
            case .failure(ChannelError.connectTimeout):
                state.end(.timedOut(.open, seconds: timeout))
            case .failure(let error):
                state.end(.connectionFailed(host: address.host, port: address.port, reason: describe(error)))
            }
        }
        do throws(IFDTransportError) {
            let certificate = try state.waitUntilOpen(deadline, timeout: timeout)
            guard let channel = connected.withLock({ $0 }) else { throw .timedOut(.open, seconds: timeout) }
            return IFDWebSocket(channel: channel, state: state, peerCertificateDER: certificate)
        } catch {
            // Whatever is under way stops: a late connection is closed as soon as it exists.
            connect.whenSuccess { $0.close(promise: nil) }
            throw error
        }
    }

    private static func configure(
        _ pipeline: ChannelPipeline.SynchronousOperations, tls: IFDTLSContext, state: IFDChannelState,
        address: IFDAddress, keepAlive: Double
    ) throws {
        try pipeline.addHandler(OpenSSLClientHandler(tls: tls, state: state))
        let requester = WebSocketUpgradeRequester(hostHeader: address.hostHeader, state: state)
        let upgrader = NIOWebSocketClientUpgrader(maxFrameSize: maximumMessageSize, automaticErrorHandling: true) {
            channel, _ in
            channel.eventLoop.makeCompletedFuture {
                let pipeline = channel.pipeline.syncOperations
                try pipeline.addHandler(
                    NIOWebSocketFrameAggregator(
                        minNonFinalFragmentSize: 0, maxAccumulatedFrameCount: 256,
                        maxAccumulatedFrameSize: maximumMessageSize))
                try pipeline.addHandler(IFDFrameHandler(state: state, keepAlive: keepAlive))
            }
        }
        let requesterName = "ifd-upgrade-requester"
        try pipeline.addHTTPClientHandlers(
            withClientUpgrade: (
                upgraders: [upgrader],
                completionHandler: { context in
                    context.pipeline.syncOperations.removeHandler(name: requesterName, promise: nil)
                }
            ))
        try pipeline.addHandler(requester, name: requesterName)
    }

    /// Sends one text message; waits at most `timeout` seconds for it to be handed to the socket.
    public func send(text: String, timeout: Double) throws(IFDTransportError) {
        if let reason = state.endReason { throw reason }
        let frame = WebSocketFrame(
            fin: true, opcode: .text, maskKey: .random(), data: channel.allocator.buffer(string: text))
        switch channel.writeAndFlush(frame).result(within: timeout) {
        case .success: return
        case .failure: throw state.endReason ?? .closed(code: nil)
        case nil:
            state.end(.timedOut(.send, seconds: timeout))
            channel.close(promise: nil)
            throw .timedOut(.send, seconds: timeout)
        }
    }

    /// The next text message from the phone, waiting at most `timeout` seconds: `.timedOut(.receive, …)` when
    /// none came (the connection stays open); `.closed`, `.tlsAlert`, `.peerUnresponsive` and the like once the
    /// connection ended and every message before the end was taken.
    public func receive(timeout: Double) throws(IFDTransportError) -> String {
        try state.next(Deadline(secondsFromNow: timeout), timeout: timeout)
    }

    /// Whether the connection ended (the phone closed it, vanished, or `close` was called).
    public var isClosed: Bool { state.endReason != nil }

    /// Ends the WebSocket (close frame 1000, the phone's answer awaited at most a second) and the TLS connection
    /// (close_notify). Returns within about a second; calling it again does nothing.
    public func close() {
        guard state.endReason == nil else {
            channel.close(promise: nil)
            return
        }
        channel.pipeline.fireUserInboundEventTriggered(IFDCloseRequest(wait: Self.closeWait))
        state.end(.closed(code: 1000))
        _ = channel.closeFuture.result(within: Self.closeWait + 0.5)
        channel.close(promise: nil)
    }

    private static func describe(_ error: any Error) -> String {
        if let error = error as? IOError { return "\(error.description)" }
        if error is ChannelError { return "\(error)" }
        return "\(type(of: error))"
    }
}

/// The event loop of every connection to a phone: one thread, made on first use, for the process's life.
enum IFDEventLoop {
    static let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
}
