import NIOCore
import NIOHTTP1

/// Answers one HTTP request per connection (`Connection: close`): routes it (`ServiceRoute`),
/// asks the delegate where a workflow is concerned, and writes the answer. A browser activation
/// gets `102 Processing` at once (HTTP/1.1 clients; 1.0 knows no interim answers) and its final
/// answer when the delegate calls back. Bodies are not kept (a request with more than
/// `maximumBody` bytes is refused with 413 once it has arrived); a connection that sends no whole request within
/// `requestTimeout`, or stays idle that long, is closed; one waiting for a workflow is not.
/// Lives on its channel's event loop only.
final class ServiceHTTPHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    static let maximumBody = 4096

    private let delegate: any LocalServiceDelegate
    private let server: String
    private let requestTimeout: TimeAmount
    private let origins: WebSocketOrigin
    private var requestDeadline: Scheduled<Void>?
    private var head: HTTPRequestHead?
    private var bodyBytes = 0
    /// An answer is written or under way: nothing more is read.
    private var answered = false
    /// A workflow runs for this request.
    private var waiting = false

    init(delegate: any LocalServiceDelegate, server: String, requestTimeout: TimeAmount, origins: WebSocketOrigin) {
        self.origins = origins
        self.delegate = delegate
        self.server = server
        self.requestTimeout = requestTimeout
    }

    func handlerAdded(context: ChannelHandlerContext) {
        let channel = context.channel
        requestDeadline = context.eventLoop.scheduleTask(in: requestTimeout) { channel.close(promise: nil) }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        requestDeadline?.cancel()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !answered else { return }
        switch unwrapInboundIn(data) {
        case .head(let requestHead):
            head = requestHead
        case .body(let buffer):
            // Counted and dropped; answered at the end, so the answer is not lost to a reset
            // from unread bytes. The request deadline bounds how long this may take.
            bodyBytes += buffer.readableBytes
        case .end:
            guard let requestHead = head else { return }
            answered = true
            requestDeadline?.cancel()
            if bodyBytes > Self.maximumBody {
                page(context, status: .payloadTooLarge, sentence: "The request is too large.")
            } else {
                respond(context, requestHead)
            }
        }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is IdleStateHandler.IdleStateEvent {
            if !waiting && !answered { context.close(promise: nil) }
        } else {
            context.fireUserInboundEventTriggered(event)
        }
    }

    private func respond(_ context: ChannelHandlerContext, _ head: HTTPRequestHead) {
        let port = context.channel.localAddress?.port ?? 0
        let host = head.headers.first(name: "host")
        switch ServiceRoute(method: head.method.rawValue, target: head.uri, host: host, port: port) {
        case .refused(let refusal):
            refuse(context, refusal)
        case .preflight:
            write(context, status: .noContent, headers: ServiceResponse.headers(server: server, cors: true), body: nil)
        case .status(let json):
            var headers = ServiceResponse.headers(server: server, cors: true)
            headers.add(name: "Content-Type", value: json ? "application/json" : "text/plain; charset=utf-8")
            write(context, status: .ok, headers: headers, body: delegate.status(json: json))
        case .sdk:
            if !origins.allows(head.headers.first(name: "origin")) {
                refuse(context, .originPresent)
            } else if head.headers.contains(name: "upgrade") && !delegate.acceptsSDKClient {
                refuse(context, .sdkClientPresent)
            } else {
                refuse(context, .notFound)
            }
        case .favicon:
            var headers = ServiceResponse.headers(server: server, cors: false)
            headers.add(name: "Content-Type", value: "image/x-icon")
            write(context, status: .ok, headers: headers, bytes: FavIcon.bytes)
        case .activation(let tcTokenURL):
            activate(context, tcTokenURL: tcTokenURL, interim: head.version != .http1_0 && head.version != .http0_9)
        }
    }

    private func activate(_ context: ChannelHandlerContext, tcTokenURL: String, interim: Bool) {
        let bound = NIOLoopBound((handler: self, context: context), eventLoop: context.eventLoop)
        let start = delegate.activate(tcTokenURL: tcTokenURL) { answer in
            bound.eventLoop.execute {
                let (handler, context) = bound.value
                handler.waiting = false
                handler.finish(context, answer)
            }
        }
        switch start {
        case .busy:
            refuse(context, .busy)
        case .refused(let answer):
            finish(context, answer)
        case .started:
            // `finish` always comes through the event loop, so after this.
            waiting = true
            guard interim else { return }
            var headers = HTTPHeaders()
            headers.add(name: "Server", value: server)
            headers.add(name: "Date", value: ServiceResponse.httpDate())
            let processing = HTTPResponseHead(version: .http1_1, status: .processing, headers: headers)
            context.writeAndFlush(wrapOutboundOut(.head(processing)), promise: nil)
        }
    }

    private func finish(_ context: ChannelHandlerContext, _ answer: ActivationAnswer) {
        switch answer {
        case .seeOther(let location):
            var headers = ServiceResponse.headers(server: server, cors: false)
            headers.add(name: "Location", value: location)
            write(context, status: .seeOther, headers: headers, body: "")
        case .failure(.tcTokenNotFound(let why)):
            page(context, status: .notFound, sentence: why)
        case .failure(.badRequest(let why)):
            page(context, status: .badRequest, sentence: why)
        case .failure(.internalError(let why)):
            page(context, status: .internalServerError, sentence: why)
        case .failure(.noAnswerer(let why)):
            page(context, status: .serviceUnavailable, sentence: why)
        }
    }

    private func refuse(_ context: ChannelHandlerContext, _ refusal: ServiceRefusal) {
        page(context, status: HTTPResponseStatus(statusCode: refusal.status), sentence: refusal.sentence)
    }

    private func page(_ context: ChannelHandlerContext, status: HTTPResponseStatus, sentence: String) {
        var headers = ServiceResponse.headers(server: server, cors: false)
        headers.add(name: "Content-Type", value: "text/html; charset=utf-8")
        let body = HTMLPage.render(status: Int(status.code), reason: status.reasonPhrase, sentence: sentence)
        write(context, status: status, headers: headers, body: body)
    }

    /// Writes the final answer and closes the connection once it is out.
    private func write(
        _ context: ChannelHandlerContext, status: HTTPResponseStatus, headers: HTTPHeaders, body: String?
    ) {
        write(context, status: status, headers: headers, bytes: body.map { Array($0.utf8) })
    }

    private func write(
        _ context: ChannelHandlerContext, status: HTTPResponseStatus, headers: HTTPHeaders, bytes body: [UInt8]?
    ) {
        var headers = headers
        var buffer: ByteBuffer?
        if let body {
            let bytes = context.channel.allocator.buffer(bytes: body)
            headers.add(name: "Content-Length", value: String(bytes.readableBytes))
            buffer = bytes
        }
        let head = HTTPResponseHead(version: .http1_1, status: status, headers: headers)
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        if let buffer, buffer.readableBytes > 0 {
            context.write(wrapOutboundOut(.body(.byteBuffer(buffer))), promise: nil)
        }
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in channel.close(promise: nil) }
    }
}
