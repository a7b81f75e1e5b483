import NIOCore
import NIOWebSocket

#if canImport(Glibc)
import Glibc
#endif

/// The SDK over one WebSocket (`/eID-Kernel`): each text message goes to the client's session
/// (`SDKClient.receive`), its bytes zeroed afterwards; a ping is answered, a close is returned
/// and the connection ends (the client is told it has gone before the close goes back, so that
/// it may connect again at once); a binary message ends it (the SDK speaks JSON text). Fragments are
/// joined before (`NIOWebSocketFrameAggregator`, bounded).
final class SDKWebSocketHandler: ChannelInboundHandler {
    typealias InboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    private let client: any SDKClient
    private var closing = false

    init(client: any SDKClient) { self.client = client }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        switch frame.opcode {
        case .text:
            var text = frame.unmaskedData
            text.withUnsafeMutableReadableBytes { raw in
                let bytes = raw.bindMemory(to: UInt8.self)
                client.receive(bytes)
                if let base = bytes.baseAddress { explicit_bzero(base, bytes.count) }
            }
        case .ping:
            let pong = WebSocketFrame(fin: true, opcode: .pong, data: frame.unmaskedData)
            context.writeAndFlush(wrapOutboundOut(pong), promise: nil)
        case .connectionClose:
            client.closed()
            close(context, code: nil)
        case .binary:
            close(context, code: .unacceptableData)
        default:
            break
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        client.closed()
        context.fireChannelInactive()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        // The HTTP idle timeout does not apply to a connected SDK client.
        if !(event is IdleStateHandler.IdleStateEvent) { context.fireUserInboundEventTriggered(event) }
    }

    /// Answers or sends a close frame (with `code`), then closes the connection.
    private func close(_ context: ChannelHandlerContext, code: WebSocketErrorCode?) {
        guard !closing else { return }
        closing = true
        var data = context.channel.allocator.buffer(capacity: 2)
        if let code { data.write(webSocketErrorCode: code) }
        let frame = WebSocketFrame(fin: true, opcode: .connectionClose, data: data)
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(frame)).whenComplete { _ in channel.close(promise: nil) }
    }
}
