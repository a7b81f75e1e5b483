import NIOCore
import NIOWebSocket

/// The phone's end of one WebSocket: text frames go to the `PhoneSession`, whose faults it carries out
/// (vanish: the TLS handler is taken out and the socket closed, so neither TLS close_notify nor a WebSocket
/// close is sent; stall: nothing more is read or answered). Pings are answered, a close is returned.
final class PhoneWebSocketHandler: ChannelInboundHandler {
    typealias InboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    static let tlsHandlerName = "phone-tls"

    private let session: PhoneSession
    private let ended: @Sendable () -> Void
    private var stalled = false
    private var closeSent = false

    init(session: PhoneSession, ended: @escaping @Sendable () -> Void) {
        self.session = session
        self.ended = ended
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !stalled else { return }
        let frame = unwrapInboundIn(data)
        if frame.opcode == .text {
            let bytes = Array(frame.unmaskedData.readableBytesView)
            switch session.receive(bytes) {
            case .none: break
            case .stall: stalled = true
            case .vanish: vanish(context)
            }
        } else if frame.opcode == .ping {
            context.writeAndFlush(
                wrapOutboundOut(WebSocketFrame(fin: true, opcode: .pong, data: frame.unmaskedData)), promise: nil)
        } else if frame.opcode == .connectionClose || frame.opcode == .binary {
            sendClose(context, code: frame.opcode == .binary ? .unacceptableData : nil)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        session.closed()
        ended()
        context.fireChannelInactive()
    }

    /// Takes the TLS handler out on the next turn of the event loop (it is still reading the record that
    /// brought this message), then closes the socket: the client sees the connection end, nothing more.
    private func vanish(_ context: ChannelHandlerContext) {
        stalled = true
        let channel = context.channel
        context.eventLoop.execute {
            channel.pipeline.removeHandler(name: Self.tlsHandlerName).whenComplete { _ in
                channel.close(promise: nil)
            }
        }
    }

    private func sendClose(_ context: ChannelHandlerContext, code: WebSocketErrorCode?) {
        guard !closeSent else { return }
        closeSent = true
        var data = context.channel.allocator.buffer(capacity: 2)
        if let code { data.write(webSocketErrorCode: code) }
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(WebSocketFrame(fin: true, opcode: .connectionClose, data: data)))
            .whenComplete { _ in channel.close(promise: nil) }
    }
}
