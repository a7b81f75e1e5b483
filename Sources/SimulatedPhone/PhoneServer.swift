import NIOCore
import NIOHTTP1
import NIOPosix
import NIOWebSocket
import SmartCard
import TestServerHTTPS

/// The simulated phone's IFD server: TLS 1.2 (TestServerHTTPS's OpenSSL through memory BIOs), the WebSocket
/// (NIOWebSocket, any path) and one `PhoneSession` per connection, on one event loop; and the announcements
/// (`PhoneAnnouncer`). While pairing, a new connection gets the RSA-PSK context with the pairing code; the
/// first one that completes its handshake pairs its client and ends pairing (as AusweisApp's phone).
/// A second WebSocket client while one is connected is closed with 1008 (policy violation), as AusweisApp does.
public final class PhoneServer: @unchecked Sendable {
    // @unchecked: immutable after init except `state` (locked) and `channel`/`announcer` (set in start).
    private struct State {
        var pairingContext: TLSServerContext?
        var sessionOpen = false
    }

    public let configuration: PhoneConfiguration
    public let identity: PhoneIdentity
    public let paired: PairedClients
    let reader: PhoneCardReader
    private let log: @Sendable (String) -> Void
    private let normalContext: TLSServerContext
    private let state: Locked<State>
    private let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    private var channel: Channel?
    private var announcer: PhoneAnnouncer?

    public init(
        configuration: PhoneConfiguration, identity: PhoneIdentity, paired: PairedClients, reader: PhoneCardReader,
        log: @escaping @Sendable (String) -> Void
    ) throws(PhoneError) {
        self.configuration = configuration
        self.identity = identity
        self.paired = paired
        self.reader = reader
        self.log = log
        let credentials = identity.credentials
        do {
            normalContext = try TLSServerContext(
                ifdCertificatePEM: credentials.certificatePEM, keyPEM: credentials.keyPEM, pairingKey: nil,
                judge: paired)
            let pairing = try configuration.pairingCode.map { code throws(TestServerError) in
                try TLSServerContext(
                    ifdCertificatePEM: credentials.certificatePEM, keyPEM: credentials.keyPEM,
                    pairingKey: Array(code.utf8), judge: paired.forPairing())
            }
            state = Locked(State(pairingContext: pairing))
        } catch {
            throw .tlsSetup
        }
    }

    /// The port it listens on (after `start`).
    public var port: Int? { channel?.localAddress?.port }

    /// Whether the phone is still waiting for a client to pair.
    public var isPairing: Bool { state.withLock { $0.pairingContext != nil } }

    /// Starts listening and announcing; returns the port.
    @discardableResult
    public func start() throws(PhoneError) -> Int {
        let address = "\(configuration.listenHost):\(configuration.listenPort)"
        do {
            channel = try bootstrap().bind(host: configuration.listenHost, port: configuration.listenPort).wait()
        } catch {
            throw .cannotListen(address: address, reason: "\(error)")
        }
        let port = channel?.localAddress?.port ?? 0
        let ifdID = configuration.announcePEMIdentifier ? identity.ifdIDPEM : identity.ifdID
        let addresses = configuration.announcedAddresses(port: port)
        announcer = try PhoneAnnouncer(
            group: group, target: configuration.announceTarget,
            interval: configuration.announceInterval
        ) { [weak self] in
            PhoneAnnouncement(
                ifdName: self?.configuration.name ?? "", ifdID: ifdID, port: port, addresses: addresses,
                pairing: self?.isPairing ?? false)
        }
        return port
    }

    /// Blocks until the server stops.
    public func wait() { try? channel?.closeFuture.wait() }

    /// Stops announcing and listening; closes the connections.
    public func stop() {
        announcer?.stop()
        try? channel?.close().wait()
        try? group.syncShutdownGracefully()
    }

    /// Called once a TLS handshake is done: a pairing connection pairs its client and ends pairing.
    private func established(_ event: TLSEstablished) {
        guard event.pskIdentity != nil || event.cipher.contains("PSK"), let der = event.peerCertificateDER else {
            return
        }
        state.withLock { $0.pairingContext = nil }
        if paired.add(der) {
            log("paired with a client; pairing ends")
        } else {
            log("could not store the paired client's certificate in \(paired.directory)")
        }
    }

    /// Takes the one session slot; false when a client is connected already.
    private func openSession() -> Bool {
        state.withLock { state in
            guard !state.sessionOpen else { return false }
            state.sessionOpen = true
            return true
        }
    }

    private func bootstrap() -> ServerBootstrap {
        ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 16)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { [self] channel in
                let tls = state.withLock { $0.pairingContext } ?? normalContext
                return channel.eventLoop.makeCompletedFuture {
                    let pipeline = channel.pipeline.syncOperations
                    try pipeline.addHandler(
                        OpenSSLServerHandler(context: tls), name: PhoneWebSocketHandler.tlsHandlerName)
                    try pipeline.addHandler(PhoneTLSObserver { [weak self] in self?.established($0) })
                    let upgrade: NIOHTTPServerUpgradeConfiguration = (
                        upgraders: [webSocketUpgrader()],
                        completionHandler: { context in
                            context.pipeline.removeHandler(name: PhoneHTTPRefusal.name, promise: nil)
                        }
                    )
                    try pipeline.configureHTTPServerPipeline(withServerUpgrade: upgrade, withErrorHandling: true)
                    try pipeline.addHandler(PhoneHTTPRefusal(), name: PhoneHTTPRefusal.name)
                }
            }
    }

    private func webSocketUpgrader() -> NIOWebSocketServerUpgrader {
        NIOWebSocketServerUpgrader(
            maxFrameSize: 1 << 20, automaticErrorHandling: true,
            shouldUpgrade: { channel, _ in channel.eventLoop.makeSucceededFuture(HTTPHeaders()) },
            upgradePipelineHandler: { [self] channel, _ in
                channel.eventLoop.makeCompletedFuture {
                    let pipeline = channel.pipeline.syncOperations
                    try pipeline.addHandler(
                        NIOWebSocketFrameAggregator(
                            minNonFinalFragmentSize: 0, maxAccumulatedFrameCount: 64, maxAccumulatedFrameSize: 1 << 20))
                    guard openSession() else {
                        log("refused a second client: one is connected")
                        try pipeline.addHandler(PhoneSecondClientRefusal())
                        return
                    }
                    let session = PhoneSession(
                        reader: reader, ifdName: configuration.name, faults: configuration.faults
                    ) {
                        text in
                        channel.writeAndFlush(
                            WebSocketFrame(fin: true, opcode: .text, data: channel.allocator.buffer(string: text)),
                            promise: nil)
                    }
                    log("a client connected")
                    try pipeline.addHandler(
                        PhoneWebSocketHandler(session: session) { [weak self] in
                            self?.state.withLock { $0.sessionOpen = false }
                            self?.log("the client left")
                        })
                }
            })
    }
}
