import NIOCore
import NIOHTTP1
import NIOWebSocket
import TestServerHTTPS

/// Passes on the end of the TLS handshake (the client's certificate, the suite) to the server.
final class PhoneTLSObserver: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private let onEstablished: (TLSEstablished) -> Void

    init(_ onEstablished: @escaping (TLSEstablished) -> Void) { self.onEstablished = onEstablished }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let established = event as? TLSEstablished { onEstablished(established) }
        context.fireUserInboundEventTriggered(event)
    }
}

/// A plain HTTP request instead of a WebSocket upgrade: the phone serves nothing else, the connection ends.
final class PhoneHTTPRefusal: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    static let name = "phone-http-refusal"

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .end = unwrapInboundIn(data) { context.close(promise: nil) }
    }
}

/// A WebSocket client while another is connected: closed at once with 1008 (policy violation), as
/// AusweisApp's phone closes it.
final class PhoneSecondClientRefusal: ChannelInboundHandler {
    typealias InboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    func handlerAdded(context: ChannelHandlerContext) {
        var data = context.channel.allocator.buffer(capacity: 2)
        data.write(webSocketErrorCode: .policyViolation)
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(WebSocketFrame(fin: true, opcode: .connectionClose, data: data)))
            .whenComplete { _ in channel.close(promise: nil) }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {}
}
