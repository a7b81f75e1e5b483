import NIOCore
import NIOWebSocket

/// The open WebSocket to a phone, as AusweisApp's `WebSocketChannel` keeps it: text messages go to `state`; a
/// ping is answered with a pong; a ping is sent after every `keepAlive` seconds and the phone must answer it
/// within the next `keepAlive` seconds, else the connection ends (`peerUnresponsive`); a close frame is
/// answered and ends it (`closed(code:)`). Frames eid sends are masked (RFC 6455 5.3). Binary frames are no
/// part of the protocol: the connection is closed (1003).
final class IFDFrameHandler: ChannelInboundHandler {
    typealias InboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    private let state: IFDChannelState
    private let keepAlive: TimeAmount
    private var awaitingPong = false
    private var closeSent = false
    private var timer: Scheduled<Void>?

    init(state: IFDChannelState, keepAlive: Double) {
        self.state = state
        self.keepAlive = .milliseconds(Int64(max(keepAlive, 0.01) * 1000))
    }

    func handlerAdded(context: ChannelHandlerContext) {
        state.opened()
        scheduleKeepAlive(context)
    }

    func handlerRemoved(context: ChannelHandlerContext) { timer?.cancel() }

    func channelInactive(context: ChannelHandlerContext) {
        timer?.cancel()
        state.channelClosed()
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        switch frame.opcode {
        case .text:
            state.received(String(buffer: frame.unmaskedData))
        case .ping:
            send(context, opcode: .pong, data: frame.unmaskedData)
        case .pong:
            awaitingPong = false
        case .connectionClose:
            var data = frame.unmaskedData
            let code = data.readInteger(as: UInt16.self)
            state.end(.closed(code: code.map { Int($0) }))
            // The answer to eid's own close frame, or the phone's: either way the connection is done.
            closeConnection(context, code: code, wait: 0)
        case .binary:
            state.end(.protocolViolation("a binary WebSocket message"))
            closeConnection(context, code: 1003, wait: 0)
        default:
            state.end(.protocolViolation("WebSocket opcode \(frame.opcode)"))
            closeConnection(context, code: 1002, wait: 0)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        state.end(.protocolViolation("WebSocket: \(type(of: error))"))
        context.close(promise: nil)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let request = event as? IFDCloseRequest {
            state.end(.closed(code: 1000))
            closeConnection(context, code: 1000, wait: request.wait)
        } else {
            context.fireUserInboundEventTriggered(event)
        }
    }

    private func scheduleKeepAlive(_ context: ChannelHandlerContext) {
        timer = context.eventLoop.assumeIsolated().scheduleTask(in: keepAlive) { [self] in
            guard context.channel.isActive, !closeSent else { return }
            if awaitingPong {
                state.end(.peerUnresponsive)
                context.close(promise: nil)
                return
            }
            awaitingPong = true
            send(context, opcode: .ping, data: context.channel.allocator.buffer(capacity: 0))
            scheduleKeepAlive(context)
        }
    }

    /// Sends a close frame (unless one went out already), then closes the connection: at once when the frame is
    /// out (`wait` 0), else when the phone answers or after `wait` seconds, whichever comes first.
    private func closeConnection(_ context: ChannelHandlerContext, code: UInt16?, wait: Double) {
        timer?.cancel()
        if closeSent {
            context.close(promise: nil)
            return
        }
        closeSent = true
        var data = context.channel.allocator.buffer(capacity: 2)
        if let code { data.writeInteger(code) }
        let frame = WebSocketFrame(fin: true, opcode: .connectionClose, maskKey: .random(), data: data)
        let written = context.writeAndFlush(wrapOutboundOut(frame)).assumeIsolated()
        if wait <= 0 {
            written.whenComplete { _ in context.close(promise: nil) }
        } else {
            let limit = TimeAmount.milliseconds(Int64(wait * 1000))
            timer = context.eventLoop.assumeIsolated().scheduleTask(in: limit) { context.close(promise: nil) }
        }
    }

    private func send(_ context: ChannelHandlerContext, opcode: WebSocketOpcode, data: ByteBuffer) {
        context.writeAndFlush(
            wrapOutboundOut(WebSocketFrame(fin: true, opcode: opcode, maskKey: .random(), data: data)), promise: nil)
    }
}

/// eid's wish to end the WebSocket, fired into the pipeline on the channel's event loop: the handler sends the
/// close frame and waits at most `wait` seconds for the phone's answer.
struct IFDCloseRequest: Sendable {
    var wait: Double
}
