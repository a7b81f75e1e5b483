import CLibSSL
import MemoryBIOTLS
import NIOCore

/// The TLS client side of a connection to a phone, OpenSSL driven through memory BIOs (`MemoryBIOConnection`,
/// as eid-testserver's `OpenSSLServerHandler` does the server side): plaintext goes up the pipeline to the HTTP
/// decoder, later the WebSocket decoder. The handshake starts when the socket connects; once it is done and
/// `IFDPeerCheck` passed, `IFDTLSEstablished` goes up. A failed handshake or broken record ends `state` with
/// the reason and closes the connection. OpenSSL's error queue is cleared, nothing secret is logged. Lives on
/// its channel's event loop only.
final class OpenSSLClientHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundIn = ByteBuffer

    private let tls: IFDTLSContext
    private let state: IFDChannelState
    private var connection: MemoryBIOConnection?

    init(tls: IFDTLSContext, state: IFDChannelState) {
        self.tls = tls
        self.state = state
    }

    func handlerAdded(context: ChannelHandlerContext) {
        var rbio: OpaquePointer?
        var wbio: OpaquePointer?
        guard let ssl = eid_ssl_client_connection(tls.handle, &rbio, &wbio), let rbio, let wbio else {
            ERR_clear_error()
            state.end(.tlsConfiguration("SSL_new"))
            context.close(promise: nil)
            return
        }
        connection = MemoryBIOConnection(ssl: ssl, readBIO: rbio, writeBIO: wbio)
        if context.channel.isActive { handshake(context) }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        connection?.release()
        connection = nil
        tls.handshakeEnded()
    }

    func channelActive(context: ChannelHandlerContext) {
        handshake(context)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        if connection?.established != true {
            tls.handshakeEnded()
            state.end(failure(reason: "the phone closed the connection during the TLS handshake"))
        }
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard let connection, !connection.closing else { return }
        guard connection.feed(unwrapInboundIn(data)) else {
            return fail(context, .protocolViolation("TLS records could not be buffered"))
        }
        if !connection.established {
            handshake(context)
            guard connection.established else { return }
        }
        let end = connection.readPlaintext(context) { context.fireChannelRead(wrapInboundOut($0)) }
        if end == .failed {
            fail(context, tls.receivedAlert.map { .tlsAlert($0) } ?? .protocolViolation("TLS: \(Self.openSSLReason())"))
        }
    }

    /// Runs the handshake as far as the records received allow; when it is done, checks the phone.
    private func handshake(_ context: ChannelHandlerContext) {
        guard let connection, !connection.established, !connection.closing else { return }
        let result = SSL_do_handshake(connection.ssl)
        connection.flushRecords(context)
        if result != 1 {
            if SSL_get_error(connection.ssl, result) != SSL_ERROR_WANT_READ {
                fail(context, failure(reason: Self.openSSLReason()))
            }
            return
        }
        tls.handshakeEnded()
        do {
            let certificate = try IFDPeerCheck.inspect(connection.ssl, security: tls.security)
            connection.established = true
            state.established(peerCertificate: certificate)
            context.fireUserInboundEventTriggered(IFDTLSEstablished())
        } catch {
            fail(context, error)
        }
    }

    /// Why the handshake failed, by the alert the phone sent: in pairing a refused PSK (wrong code, or the
    /// phone left pairing mode and offers no PSK suite); on a paired connection a refused client certificate.
    private func failure(reason: String) -> IFDTransportError {
        let alert = tls.receivedAlert
        if tls.security.isPairing {
            if alert == nil || IFDAlert.refusedPreSharedKey.contains(alert!) { return .pairingRefused(alert: alert) }
        } else if let alert, IFDAlert.refusedCertificate.contains(alert) {
            return .clientCertificateRefused(alert: alert)
        }
        return .handshakeFailed(alert: alert, reason: reason)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard let connection else { return promise?.fail(ChannelError.ioOnClosedChannel) ?? () }
        if connection.write(unwrapOutboundIn(data), context, promise: promise) == .failed {
            fail(context, .protocolViolation("TLS write: \(Self.openSSLReason())"))
        }
    }

    func flush(context: ChannelHandlerContext) { context.flush() }

    func close(context: ChannelHandlerContext, mode: CloseMode, promise: EventLoopPromise<Void>?) {
        guard let connection else { return context.close(mode: mode, promise: promise) }
        connection.close(context, mode: mode, promise: promise)
    }

    /// A handshake failure or broken record: ends the state with `reason`, sends any alert OpenSSL made, closes.
    private func fail(_ context: ChannelHandlerContext, _ reason: IFDTransportError) {
        state.end(reason)
        if let connection { connection.fail(context) } else { context.close(promise: nil) }
    }

    /// OpenSSL's reason for the last error (its text, never data), or a generic one.
    private static func openSSLReason() -> String {
        let code = ERR_peek_last_error()
        guard code != 0, let text = ERR_reason_error_string(code) else { return "TLS error" }
        return String(cString: text)
    }
}

/// The inbound user event `OpenSSLClientHandler` sends once the handshake is done and the phone checked.
struct IFDTLSEstablished: Sendable {}

/// TLS alert descriptions (RFC 5246 7.2) by what they mean for a phone's answer.
enum IFDAlert {
    /// bad_record_mac, decryption_failed, handshake_failure, illegal_parameter, decrypt_error,
    /// unknown_psk_identity: a PSK the phone does not share, or no PSK suite on its side.
    static let refusedPreSharedKey: Set<Int> = [20, 21, 40, 47, 51, 115]
    /// bad_certificate, unsupported_certificate, certificate_revoked, certificate_expired, certificate_unknown,
    /// unknown_ca, access_denied, certificate_required: eid's certificate is not one the phone knows.
    static let refusedCertificate: Set<Int> = [42, 43, 44, 45, 46, 48, 49, 116]
}
