import NIOCore
import NIOHTTP1
import NIOPosix
import NIOWebSocket
import SmartCard

/// The local eID client's port (TR-03124-1), as AusweisApp answers on it: HTTP/1.1 for browser
/// activations and status (`ServiceHTTPHandler`), the SDK over a WebSocket at `/eID-Kernel`
/// (`SDKWebSocketHandler`), on SwiftNIO. Transport only: the delegate runs the workflows.
public final class LocalService: Sendable {
    public struct Configuration: Sendable {
        /// The `Server` header of every answer.
        public var server: String
        /// Seconds a connection may take to send a whole request (and an idle one may stay).
        public var requestTimeout: Double
        /// Connections open at once; one more is closed when accepted.
        public var maximumConnections: Int
        /// The largest WebSocket message taken (an SDK command is far smaller).
        public var maximumMessageSize: Int
        /// The web pages that may use the SDK WebSocket (`AUSWEISAPP_WEBSOCKET_ORIGIN`).
        public var origins: WebSocketOrigin

        public init(
            server: String, requestTimeout: Double = 30, maximumConnections: Int = 32, origins: WebSocketOrigin = .none
        ) {
            self.origins = origins
            self.server = server
            self.requestTimeout = requestTimeout
            self.maximumConnections = maximumConnections
            maximumMessageSize = 16 * 1024
        }
    }

    private let configuration: Configuration
    private let delegate: any LocalServiceDelegate
    private let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    private let listeners = Locked<[any Channel]>([])
    private let connections = Locked(0)

    public init(configuration: Configuration, delegate: any LocalServiceDelegate) {
        self.configuration = configuration
        self.delegate = delegate
    }

    /// Listens on each of `hosts` at `port` (0: a free port, then the same on every host);
    /// returns the port. A host in `optional` that cannot be bound is left out (::1 where
    /// IPv6 is off).
    public func listen(hosts: [String], port: Int, optional: Set<String> = []) throws(LocalServiceError) -> Int {
        var port = port
        for host in hosts {
            do {
                let channel = try bootstrap().bind(host: host, port: port).wait()
                listeners.withLock { $0.append(channel) }
                port = channel.localAddress?.port ?? port
            } catch {
                if optional.contains(host) { continue }
                throw .cannotListen(host: host, port: port)
            }
        }
        return port
    }

    /// Serves on sockets passed by socket activation; returns the first one's port.
    public func adopt(descriptors: [Int32]) throws(LocalServiceError) -> Int {
        var port = 0
        for descriptor in descriptors {
            do {
                let channel = try bootstrap().withBoundSocket(descriptor).wait()
                listeners.withLock { $0.append(channel) }
                if port == 0 { port = channel.localAddress?.port ?? 0 }
            } catch {
                throw .cannotAdopt(descriptor: descriptor)
            }
        }
        return port
    }

    /// Blocks until every listener has closed.
    public func wait() {
        for channel in listeners.withLock({ $0 }) { try? channel.closeFuture.wait() }
    }

    /// Stops listening and closes every connection.
    public func stop() {
        for channel in listeners.withLock({ $0 }) { try? channel.close().wait() }
        try? group.syncShutdownGracefully()
    }

    private func bootstrap() -> ServerBootstrap {
        let configuration = self.configuration
        let delegate = self.delegate
        let connections = self.connections
        let idle = TimeAmount.milliseconds(Int64(configuration.requestTimeout * 1000))
        return ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 64)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                let admitted = connections.withLock { count in
                    guard count < configuration.maximumConnections else { return false }
                    count += 1
                    return true
                }
                guard admitted else { return channel.close() }
                channel.closeFuture.whenComplete { _ in connections.withLock { $0 -= 1 } }
                return channel.eventLoop.makeCompletedFuture {
                    let pipeline = channel.pipeline.syncOperations
                    try pipeline.addHandler(IdleStateHandler(readTimeout: idle))
                    let upgrade: NIOHTTPServerUpgradeConfiguration = (
                        upgraders: [Self.webSocketUpgrader(configuration: configuration, delegate: delegate)],
                        completionHandler: { context in
                            context.pipeline.removeHandler(name: Self.httpHandlerName, promise: nil)
                        }
                    )
                    try pipeline.configureHTTPServerPipeline(withServerUpgrade: upgrade, withErrorHandling: true)
                    try pipeline.addHandler(
                        ServiceHTTPHandler(
                            delegate: delegate, server: configuration.server, requestTimeout: idle,
                            origins: configuration.origins),
                        name: Self.httpHandlerName
                    )
                }
            }
            .childChannelOption(.socketOption(.so_reuseaddr), value: 1)
    }

    private static let httpHandlerName = "eid-service-http"

    /// The upgrade to the SDK WebSocket: only at `/eID-Kernel`, with a loopback `Host`, without
    /// `Origin` (or one `origins` allows), and while no other client is connected; a refused upgrade is answered by the
    /// HTTP handler (403, 429).
    private static func webSocketUpgrader(configuration: Configuration, delegate: any LocalServiceDelegate)
        -> NIOWebSocketServerUpgrader
    {
        NIOWebSocketServerUpgrader(
            maxFrameSize: configuration.maximumMessageSize, automaticErrorHandling: true,
            shouldUpgrade: { channel, head in
                let route = ServiceRoute(
                    method: head.method.rawValue, target: head.uri, host: head.headers.first(name: "host"),
                    port: channel.localAddress?.port ?? 0)
                let taken =
                    route == .sdk && configuration.origins.allows(head.headers.first(name: "origin"))
                    && delegate.acceptsSDKClient
                return channel.eventLoop.makeSucceededFuture(taken ? HTTPHeaders() : nil)
            },
            upgradePipelineHandler: { channel, _ in
                channel.eventLoop.makeCompletedFuture {
                    let send: @Sendable (String) -> Void = { text in
                        let frame = WebSocketFrame(
                            fin: true, opcode: .text, data: channel.allocator.buffer(string: text))
                        channel.writeAndFlush(frame, promise: nil)
                    }
                    guard let client = delegate.openSDKClient(send: send, close: { channel.close(promise: nil) }) else {
                        channel.close(promise: nil)
                        return
                    }
                    let pipeline = channel.pipeline.syncOperations
                    try pipeline.addHandler(
                        NIOWebSocketFrameAggregator(
                            minNonFinalFragmentSize: 0, maxAccumulatedFrameCount: 64,
                            maxAccumulatedFrameSize: configuration.maximumMessageSize))
                    try pipeline.addHandler(SDKWebSocketHandler(client: client))
                }
            })
    }
}
