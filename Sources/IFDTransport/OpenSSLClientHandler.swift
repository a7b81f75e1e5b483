import CLibSSL
import NIOCore

/// The TLS client side of a connection to a phone, OpenSSL driven through memory BIOs (as eid-testserver's
/// `OpenSSLServerHandler` does the server side): ciphertext from the socket goes into the read BIO, plaintext
/// comes out of SSL_read and goes up the pipeline (to the HTTP decoder, later the WebSocket decoder);
/// plaintext going down is SSL_write'd and the write BIO's records go to the socket. The handshake starts when
/// the socket connects; once it is done and `IFDPeerCheck` passed, `IFDTLSEstablished` goes up. A failed
/// handshake or broken record ends `state` with the reason and closes the connection. OpenSSL's error queue is
/// cleared, nothing secret is logged. Lives on its channel's event loop only.
final class OpenSSLClientHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    private let tls: IFDTLSContext
    private let state: IFDChannelState
    private var ssl: OpaquePointer?
    private var readBIO: OpaquePointer?
    private var writeBIO: OpaquePointer?
    private var established = false
    private var closing = false

    init(tls: IFDTLSContext, state: IFDChannelState) {
        self.tls = tls
        self.state = state
    }

    func handlerAdded(context: ChannelHandlerContext) {
        var rbio: OpaquePointer?
        var wbio: OpaquePointer?
        guard let ssl = eid_ssl_client_connection(tls.handle, &rbio, &wbio) else {
            ERR_clear_error()
            state.end(.tlsConfiguration("SSL_new"))
            context.close(promise: nil)
            return
        }
        self.ssl = ssl
        readBIO = rbio
        writeBIO = wbio
        if context.channel.isActive { handshake(context) }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        if let ssl { SSL_free(ssl) }  // frees both BIOs
        ssl = nil
        tls.handshakeEnded()
    }

    func channelActive(context: ChannelHandlerContext) {
        handshake(context)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        if !established {
            tls.handshakeEnded()
            state.end(failure(reason: "the phone closed the connection during the TLS handshake"))
        }
        closing = true
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard let readBIO, !closing else { return }
        let bytes = unwrapInboundIn(data)
        let written = bytes.withUnsafeReadableBytes { BIO_write(readBIO, $0.baseAddress, Int32($0.count)) }
        guard written == bytes.readableBytes else {
            return fail(context, .protocolViolation("TLS records could not be buffered"))
        }
        if !established {
            handshake(context)
            guard established else { return }
        }
        readPlaintext(context)
    }

    /// Runs the handshake as far as the records received allow; when it is done, checks the phone.
    private func handshake(_ context: ChannelHandlerContext) {
        guard let ssl, !established, !closing else { return }
        let result = SSL_do_handshake(ssl)
        flushRecords(context)
        if result != 1 {
            if SSL_get_error(ssl, result) != SSL_ERROR_WANT_READ {
                fail(context, failure(reason: Self.openSSLReason()))
            }
            return
        }
        tls.handshakeEnded()
        do {
            let certificate = try IFDPeerCheck.inspect(ssl, security: tls.security)
            established = true
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

    private func readPlaintext(_ context: ChannelHandlerContext) {
        guard let ssl else { return }
        while !closing {
            var buffer = context.channel.allocator.buffer(capacity: 16 * 1024)
            var result: Int32 = 0
            _ = buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: 16 * 1024) { raw in
                result = SSL_read(ssl, raw.baseAddress, Int32(min(raw.count, 16 * 1024)))
                return Int(max(0, result))
            }
            if result > 0 {
                context.fireChannelRead(wrapInboundOut(buffer))
                continue
            }
            let error = SSL_get_error(ssl, result)
            flushRecords(context)
            if error == SSL_ERROR_WANT_READ { return }
            if error == SSL_ERROR_ZERO_RETURN {  // close_notify
                closing = true
                context.close(promise: nil)
                return
            }
            let reason: IFDTransportError =
                tls.receivedAlert.map { .tlsAlert($0) } ?? .protocolViolation("TLS record: \(Self.openSSLReason())")
            return fail(context, reason)
        }
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard let ssl, established, !closing else {
            promise?.fail(ChannelError.ioOnClosedChannel)
            return
        }
        let plaintext = unwrapOutboundIn(data)
        let ok = plaintext.withUnsafeReadableBytes { raw -> Bool in
            var offset = 0
            while offset < raw.count {
                var written = 0
                guard SSL_write_ex(ssl, raw.baseAddress! + offset, raw.count - offset, &written) == 1 else {
                    return false
                }
                offset += written
            }
            return true
        }
        guard ok else {
            promise?.fail(ChannelError.ioOnClosedChannel)
            return fail(context, .protocolViolation("TLS write: \(Self.openSSLReason())"))
        }
        writeRecords(context, promise: promise)
    }

    func flush(context: ChannelHandlerContext) { context.flush() }

    func close(context: ChannelHandlerContext, mode: CloseMode, promise: EventLoopPromise<Void>?) {
        if let ssl, established, !closing {
            closing = true
            _ = SSL_shutdown(ssl)  // queues close_notify
            ERR_clear_error()
            writeRecords(context, promise: nil)
            context.flush()
        }
        closing = true
        context.close(mode: mode, promise: promise)
    }

    /// Sends what OpenSSL has queued in the write BIO (handshake messages, records, alerts).
    private func flushRecords(_ context: ChannelHandlerContext) {
        if writeRecords(context, promise: nil) { context.flush() }
    }

    @discardableResult
    private func writeRecords(_ context: ChannelHandlerContext, promise: EventLoopPromise<Void>?) -> Bool {
        guard let writeBIO else {
            promise?.succeed()
            return false
        }
        let pending = Int(BIO_ctrl_pending(writeBIO))
        guard pending > 0 else {
            promise?.succeed()
            return false
        }
        var buffer = context.channel.allocator.buffer(capacity: pending)
        _ = buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: pending) { raw in
            Int(max(0, BIO_read(writeBIO, raw.baseAddress, Int32(pending))))
        }
        context.write(wrapOutboundOut(buffer), promise: promise)
        return true
    }

    /// A handshake failure or broken record: ends the state with `reason`, sends any alert OpenSSL made, closes.
    private func fail(_ context: ChannelHandlerContext, _ reason: IFDTransportError) {
        ERR_clear_error()
        state.end(reason)
        guard !closing else { return }
        closing = true
        flushRecords(context)
        context.close(promise: nil)
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
