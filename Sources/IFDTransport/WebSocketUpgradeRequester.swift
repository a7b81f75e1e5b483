import NIOCore
import NIOHTTP1

/// Sends the WebSocket upgrade request once TLS is up, as Qt's QWebSocket sends AusweisApp's: `GET /` with
/// `Host: HOST:PORT` (NIOHTTPClientUpgradeHandler adds Upgrade, Connection, Sec-WebSocket-Key and
/// Sec-WebSocket-Version; no Origin, no subprotocol). An answer other than 101 ends the state with
/// `upgradeRefused`; after a successful upgrade the upgrade's completion removes this handler.
final class WebSocketUpgradeRequester: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPClientResponsePart
    typealias OutboundOut = HTTPClientRequestPart

    private let hostHeader: String
    private let state: IFDChannelState

    init(hostHeader: String, state: IFDChannelState) {
        self.hostHeader = hostHeader
        self.state = state
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        guard event is IFDTLSEstablished else { return context.fireUserInboundEventTriggered(event) }
        var head = HTTPRequestHead(version: .http1_1, method: .GET, uri: "/")
        head.headers.add(name: "Host", value: hostHeader)
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .head(let response) = unwrapInboundIn(data) {
            state.end(.upgradeRefused(status: Int(response.status.code)))
            context.close(promise: nil)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        state.end(.protocolViolation("WebSocket upgrade: \(Self.describe(error))"))
        context.close(promise: nil)
    }

    private static func describe(_ error: Error) -> String {
        if let error = error as? NIOHTTPClientUpgradeError { return "\(error)" }
        if error is HTTPParserError { return "not an HTTP answer" }
        return "\(type(of: error))"
    }
}
