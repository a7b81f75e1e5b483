import NIOCore
import NIOHTTP1
import NIOPosix

/// Collects one HTTP request at a time (refusing bodies over the limit with 413), runs the
/// routes on the thread pool (they may do slow crypto), and writes the answer, after a delay
/// when the route asks for one. Closes connections that stay idle or take too long to send a
/// request. Lives on its channel's event loop only.
final class FrontEndHTTPHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let routes: FrontEndRoutes
    private let pool: NIOThreadPool
    private var tls: TLSEstablished?
    private var head: HTTPRequestHead?
    private var body: [UInt8] = []
    private var refused = false
    /// The 413 answer's write, while the rest of the refused body is read and dropped.
    private var refusalSent: EventLoopFuture<Void>?
    private var requestDeadline: Scheduled<Void>?

    /// How long the rest of a refused body is read and dropped before the connection closes.
    /// Closing with unread bytes in the socket makes the kernel send a reset, which can destroy
    /// the 413 answer before the client reads it (a "lingering close", as web servers do).
    static let refusalLinger: TimeAmount = .seconds(2)

    init(routes: FrontEndRoutes, pool: NIOThreadPool) {
        self.routes = routes
        self.pool = pool
    }

    private var limit: Int { routes.configuration.maximumBodySize }

    func channelActive(context: ChannelHandlerContext) {
        armDeadline(context)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        requestDeadline?.cancel()
        context.fireChannelInactive()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let established = event as? TLSEstablished {
            tls = established
        } else if event is IdleStateHandler.IdleStateEvent {
            context.close(promise: nil)
        } else {
            context.fireUserInboundEventTriggered(event)
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let requestHead):
            head = requestHead
            body = []
            refused = false
            if let length = requestHead.headers.first(name: "content-length").flatMap(Int.init), length > limit {
                refuse(context)
            }
        case .body(let buffer):
            guard !refused else { return }
            guard body.count + buffer.readableBytes <= limit else { return refuse(context) }
            body += buffer.readableBytesView
        case .end:
            if refused, let sent = refusalSent {
                // The whole refused body has arrived: close once the 413 is written.
                refusalSent = nil
                let channel = context.channel
                sent.whenComplete { _ in channel.close(promise: nil) }
                return
            }
            guard !refused, let requestHead = head else { return }
            head = nil
            routes.statistics.requestReceived()
            if let log = routes.configuration.requestLog {
                // Who sent it: through a proxy, the proxy's outgoing address, not the client's; and
                // whether its connection resumed a TLS session (per connection: TR-03124-2 A2_28).
                let peer = context.channel.remoteAddress
                let path = requestHead.uri.prefix { $0 != "?" }
                let session = tls.map { $0.resumed ? " (TLS resumed)" : " (TLS new)" } ?? ""
                log(
                    "request from \(peer?.ipAddress ?? "?"):\(peer?.port ?? 0)\(session): "
                        + "\(requestHead.method.rawValue) \(path)")
            }
            requestDeadline?.cancel()
            let request = FrontEndRequest(
                method: requestHead.method.rawValue, uri: requestHead.uri,
                headers: requestHead.headers.map { ($0.name, $0.value) }, body: body, tls: tls)
            body = []
            let keepAlive = requestHead.isKeepAlive
            let version = requestHead.version
            let routes = self.routes
            let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
            pool.runIfActive(eventLoop: context.eventLoop) { routes.respond(to: request) }.whenComplete { result in
                let (handler, context) = bound.value
                var response: FrontEndResponse
                switch result {
                case .success(let answer): response = answer
                case .failure: response = .text(503, "shutting down")
                }
                if !keepAlive { response.close = true }
                if let delay = response.delay {
                    response.delay = nil
                    let answer = response
                    context.eventLoop.scheduleTask(in: .nanoseconds(Int64(delay.nanoseconds))) {
                        let (handler, context) = bound.value
                        handler.send(answer, version: version, context: context)
                    }
                } else {
                    handler.send(response, version: version, context: context)
                }
            }
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }

    private func refuse(_ context: ChannelHandlerContext) {
        refused = true
        body = []
        var response = FrontEndResponse.text(413, "request body larger than \(limit) bytes")
        response.close = true
        send(response, version: head?.version ?? .http1_1, context: context)
    }

    private func send(_ response: FrontEndResponse, version: HTTPVersion, context: ChannelHandlerContext) {
        guard context.channel.isActive else { return }
        guard response.headersAreSafe else {
            var refusal = FrontEndResponse.text(500, "internal error: a header value held a line break")
            refusal.close = true
            return send(refusal, version: version, context: context)
        }
        if response.abort {
            context.close(promise: nil)
            return
        }
        var headers = HTTPHeaders(response.headers)
        headers.replaceOrAdd(name: "Content-Length", value: String(response.body.count))
        headers.replaceOrAdd(name: "Server", value: "eid-testserver")
        if response.close { headers.replaceOrAdd(name: "Connection", value: "close") }
        let head = HTTPResponseHead(
            version: version, status: HTTPResponseStatus(statusCode: response.status), headers: headers)
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        var buffer = context.channel.allocator.buffer(capacity: response.body.count)
        buffer.writeBytes(response.body)
        context.write(wrapOutboundOut(.body(.byteBuffer(buffer))), promise: nil)
        let done = context.writeAndFlush(wrapOutboundOut(.end(nil)))
        if response.close && refused {
            // Linger: read and drop the rest of the body (until its end, at most refusalLinger).
            refusalSent = done
            let channel = context.channel
            context.eventLoop.scheduleTask(in: Self.refusalLinger) { channel.close(promise: nil) }
        } else if response.close {
            let channel = context.channel
            done.whenComplete { _ in channel.close(promise: nil) }
        } else {
            armDeadline(context)
        }
    }

    /// The next request must be complete within the request timeout.
    private func armDeadline(_ context: ChannelHandlerContext) {
        requestDeadline?.cancel()
        let channel = context.channel
        let timeout = routes.configuration.requestTimeout
        requestDeadline = context.eventLoop.scheduleTask(in: .nanoseconds(Int64(timeout.nanoseconds))) {
            channel.close(promise: nil)
        }
    }
}

extension Duration {
    var nanoseconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) * 1e9 + Double(attoseconds) / 1e9
    }
}
