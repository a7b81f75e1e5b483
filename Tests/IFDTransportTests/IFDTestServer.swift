import CTestServerTLS
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOWebSocket
import SmartCard

@testable import TestServerHTTPS

/// A phone's side for the tests: eid-testserver's TLS server handler (OpenSSL through memory BIOs) with a
/// client certificate required, NIO's WebSocket server upgrade, and a frame handler that behaves as told.
/// It records what the client showed: the PSK identity and suite, the upgrade request.
final class IFDTestServer: @unchecked Sendable {
    enum Behaviour: Sendable {
        /// Answers every text message with the same text.
        case echo
        /// Answers pings, says nothing.
        case silent
        /// Answers nothing, not even pings.
        case mute
        /// Sends a close frame (1001) after the delay.
        case closeAfter(Double)
        /// Closes the TCP connection, without a close frame, after the delay.
        case dropAfter(Double)
    }

    struct Seen: Sendable {
        var tls: [TLSEstablished] = []
        var requests: [HTTPRequestHead] = []
    }

    let port: Int
    let seen = Locked(Seen())
    private let channel: any Channel
    private let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)

    /// A server on a port of this helper's range with `credentials`, the PSK `code` for the empty identity (when
    /// given), and a client certificate required (`acceptsClient`: false refuses every one).
    init(
        credentials: TLSServerCredentials, code: String? = nil, acceptsClient: Bool = true,
        behaviour: Behaviour = .echo, upgrades: Bool = true
    ) throws {
        let keys = PSKStore()
        if let code { keys.register(Array(code.utf8), for: "") }
        let tls = try TLSServerContext(
            certificatePEM: credentials.certificatePEM, keyPEM: credentials.keyPEM, keys: keys)
        let mode = SSL_VERIFY_PEER | SSL_VERIFY_FAIL_IF_NO_PEER_CERT
        if acceptsClient {
            SSL_CTX_set_verify(tls.handle, mode, recordClientCertificate)
        } else {
            SSL_CTX_set_verify(tls.handle, mode, refuseClientCertificate)
        }
        let seen = self.seen
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let pipeline = channel.pipeline.syncOperations
                    try pipeline.addHandler(OpenSSLServerHandler(context: tls))
                    try pipeline.addHandler(TLSRecorder(seen: seen))
                    let upgrader = NIOWebSocketServerUpgrader(
                        maxFrameSize: 1 << 20, automaticErrorHandling: true,
                        shouldUpgrade: { channel, head in
                            seen.withLock { $0.requests.append(head) }
                            return channel.eventLoop.makeSucceededFuture(upgrades ? HTTPHeaders() : nil)
                        },
                        upgradePipelineHandler: { channel, _ in
                            channel.eventLoop.makeCompletedFuture {
                                try channel.pipeline.syncOperations.addHandler(PhoneFrameHandler(behaviour: behaviour))
                            }
                        })
                    try pipeline.configureHTTPServerPipeline(
                        withServerUpgrade: (
                            upgraders: [upgrader],
                            completionHandler: { context in
                                context.pipeline.removeHandler(name: "refusing", promise: nil)
                            }
                        ))
                    try pipeline.addHandler(RefusingHTTPHandler(), name: "refusing")
                }
            }
        (channel, port) = try IFDTestPorts.bind { try bootstrap.bind(host: "127.0.0.1", port: $0).wait() }
        _ = tls  // kept alive by the handlers
    }

    var url: String { "wss://127.0.0.1:\(port)" }

    private let stopped = Locked(false)

    /// Closes the listener and ends the event loop; again does nothing.
    func stop() {
        guard
            stopped.withLock({ done in
                defer { done = true }
                return !done
            })
        else { return }
        try? channel.close().wait()
        try? group.syncShutdownGracefully()
    }

    deinit { stop() }
}

/// Every client certificate the test servers accepted (DER), to check that eid showed its own.
let clientCertificatesSeen = Locked<[[UInt8]]>([])

/// The server's verify callback: any certificate (a phone pins, it does not chain), the leaf recorded.
private func recordClientCertificate(_: Int32, _ store: OpaquePointer?) -> Int32 {
    guard let store, X509_STORE_CTX_get_error_depth(store) == 0, let cert = X509_STORE_CTX_get_current_cert(store)
    else { return 1 }
    var out: UnsafeMutablePointer<UInt8>?
    let length = i2d_X509(cert, &out)
    if length > 0, let out {
        clientCertificatesSeen.withLock { $0.append(Array(UnsafeBufferPointer(start: out, count: Int(length)))) }
        eid_tls_openssl_free(out)
    }
    return 1
}

/// A phone that does not know this client: every certificate rejected (alert bad_certificate).
private func refuseClientCertificate(_: Int32, _ store: OpaquePointer?) -> Int32 {
    if let store { X509_STORE_CTX_set_error(store, X509_V_ERR_CERT_REJECTED) }
    return 0
}

/// Records the handshake facts `OpenSSLServerHandler` reports.
private final class TLSRecorder: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    let seen: Locked<IFDTestServer.Seen>

    init(seen: Locked<IFDTestServer.Seen>) { self.seen = seen }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let established = event as? TLSEstablished { seen.withLock { $0.tls.append(established) } }
        context.fireUserInboundEventTriggered(event)
    }
}

/// Answers a request that was not upgraded with 403.
private final class RefusingHTTPHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .end = unwrapInboundIn(data) else { return }
        var head = HTTPResponseHead(version: .http1_1, status: .forbidden)
        head.headers.add(name: "Content-Length", value: "0")
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
    }
}

/// The phone's WebSocket side.
private final class PhoneFrameHandler: ChannelInboundHandler {
    typealias InboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame
    let behaviour: IFDTestServer.Behaviour

    init(behaviour: IFDTestServer.Behaviour) { self.behaviour = behaviour }

    func handlerAdded(context: ChannelHandlerContext) {
        let loop = context.eventLoop.assumeIsolated()
        switch behaviour {
        case .closeAfter(let seconds):
            loop.scheduleTask(in: .milliseconds(Int64(seconds * 1000))) {
                var data = context.channel.allocator.buffer(capacity: 2)
                data.writeInteger(UInt16(1001))
                context.writeAndFlush(
                    self.wrapOutboundOut(WebSocketFrame(fin: true, opcode: .connectionClose, data: data)), promise: nil)
            }
        case .dropAfter(let seconds):
            loop.scheduleTask(in: .milliseconds(Int64(seconds * 1000))) { context.close(promise: nil) }
        default: break
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        switch frame.opcode {
        case .text:
            if case .echo = behaviour {
                context.writeAndFlush(
                    wrapOutboundOut(WebSocketFrame(fin: true, opcode: .text, data: frame.unmaskedData)), promise: nil)
            }
        case .ping:
            if case .mute = behaviour { return }
            context.writeAndFlush(
                wrapOutboundOut(WebSocketFrame(fin: true, opcode: .pong, data: frame.unmaskedData)), promise: nil)
        case .connectionClose:
            context.writeAndFlush(
                wrapOutboundOut(WebSocketFrame(fin: true, opcode: .connectionClose, data: frame.unmaskedData)),
                promise: nil)
            context.close(promise: nil)
        default: break
        }
    }
}
