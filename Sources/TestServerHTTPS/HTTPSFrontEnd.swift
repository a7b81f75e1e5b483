import NIOCore
import NIOHTTP1
import NIOPosix
import SmartCard

/// eid-testserver's HTTPS server: SwiftNIO accepts connections and parses HTTP/1.1 (NIOHTTP1);
/// OpenSSL (`TLSServerContext`, through memory BIOs) does TLS; `FrontEndRoutes` answers. Each
/// connection has an idle timeout and a request timeout; a broken connection closes only
/// itself. At most `maximumConnections` are open at once: one more is closed as soon as it is
/// accepted (counted in `/stats` as refused), before any TLS work.
public final class HTTPSFrontEnd: Sendable {
    public let routes: FrontEndRoutes
    private let tls: TLSServerContext
    private let group: MultiThreadedEventLoopGroup
    private let pool: NIOThreadPool
    private let channel = Locked<(any Channel)?>(nil)

    public init(configuration: FrontEndConfiguration, tls: TLSServerContext, handler: any PAOSSessionHandler) {
        self.tls = tls
        routes = FrontEndRoutes(
            configuration: configuration, keys: tls.keys, handler: handler, nextConnection: tls.nextConnection)
        group = MultiThreadedEventLoopGroup(numberOfThreads: max(2, System.coreCount))
        pool = NIOThreadPool(numberOfThreads: max(4, 2 * System.coreCount))
    }

    /// Starts listening; returns the port (the bound one when the configuration says 0).
    @discardableResult
    public func start() throws(TestServerError) -> Int {
        let configuration = routes.configuration
        pool.start()
        let routes = self.routes
        let tls = self.tls
        let pool = self.pool
        let statistics = routes.statistics
        let limit = configuration.maximumConnections
        let idle = TimeAmount.nanoseconds(Int64(configuration.idleTimeout.nanoseconds))
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 256)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                guard statistics.connectionOpened(limit: limit) else {
                    return channel.close()
                }
                channel.closeFuture.whenComplete { _ in statistics.connectionClosed() }
                return channel.eventLoop.makeCompletedFuture {
                    let pipeline = channel.pipeline.syncOperations
                    try pipeline.addHandler(IdleStateHandler(readTimeout: idle))
                    try pipeline.addHandler(OpenSSLServerHandler(context: tls, statistics: statistics))
                    try pipeline.configureHTTPServerPipeline(withErrorHandling: true)
                    try pipeline.addHandler(FrontEndHTTPHandler(routes: routes, pool: pool))
                }
            }
            .childChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(.maxMessagesPerRead, value: 16)
        let bound: any Channel
        do {
            bound = try bootstrap.bind(host: configuration.host, port: configuration.port).wait()
        } catch {
            throw .cannotListen(host: configuration.host, port: configuration.port)
        }
        let port = bound.localAddress?.port ?? configuration.port
        if configuration.origin == nil { routes.origin = "https://\(configuration.host):\(port)" }
        channel.withLock { $0 = bound }
        return port
    }

    /// Blocks until the server stops.
    public func wait() {
        let bound = channel.withLock { $0 }
        try? bound?.closeFuture.wait()
    }

    /// Stops listening and closes every connection.
    public func stop() {
        let bound = channel.withLock { channel in
            defer { channel = nil }
            return channel
        }
        try? bound?.close().wait()
        try? group.syncShutdownGracefully()
        try? pool.syncShutdownGracefully()
    }
}
