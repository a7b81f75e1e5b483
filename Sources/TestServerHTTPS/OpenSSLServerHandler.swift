import CTestServerTLS
import MemoryBIOTLS
import NIOCore

/// The TLS server side of one connection, OpenSSL driven through memory BIOs (`MemoryBIOConnection`):
/// plaintext goes up the pipeline to the HTTP decoder. A failed handshake or a broken record closes the
/// connection; OpenSSL's error queue is cleared, nothing secret is logged. Lives on its channel's event
/// loop only.
public final class OpenSSLServerHandler: ChannelDuplexHandler, RemovableChannelHandler {
    public typealias InboundIn = ByteBuffer
    public typealias InboundOut = ByteBuffer
    public typealias OutboundIn = ByteBuffer
    public typealias OutboundOut = ByteBuffer

    private let context: TLSServerContext
    private let statistics: FrontEndStatistics?
    private var connection: MemoryBIOConnection?

    public init(context: TLSServerContext, statistics: FrontEndStatistics? = nil) {
        self.context = context
        self.statistics = statistics
    }

    public func handlerAdded(context: ChannelHandlerContext) {
        var rbio: OpaquePointer?
        var wbio: OpaquePointer?
        guard let ssl = eid_tls_server_connection(self.context.handle, &rbio, &wbio), let rbio, let wbio else {
            ERR_clear_error()
            context.close(promise: nil)
            return
        }
        self.context.nextConnection.apply(to: ssl)
        connection = MemoryBIOConnection(ssl: ssl, readBIO: rbio, writeBIO: wbio)
    }

    public func handlerRemoved(context: ChannelHandlerContext) {
        connection?.release()  // frees the SSL and both BIOs
        connection = nil
    }

    public func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard let connection, !connection.closing else { return }
        guard connection.feed(unwrapInboundIn(data)) else { return connection.fail(context) }
        let ssl = connection.ssl
        if !connection.established {
            let result = SSL_do_handshake(ssl)
            connection.flushRecords(context)
            if result != 1 {
                if SSL_get_error(ssl, result) != SSL_ERROR_WANT_READ { connection.fail(context) }
                return
            }
            connection.established = true
            statistics?.handshakeCompleted(resumed: SSL_session_reused(ssl) == 1)
            let identity = eid_tls_psk_identity(ssl).map { String(cString: $0) }
            let cipher = eid_tls_cipher_name(ssl).map { String(cString: $0) } ?? ""
            context.fireUserInboundEventTriggered(
                TLSEstablished(
                    pskIdentity: identity, resumed: SSL_session_reused(ssl) == 1, cipher: cipher,
                    peerCertificateDER: peerCertificateDER(ssl)))
        }
        if connection.readPlaintext(context, deliver: { context.fireChannelRead(wrapInboundOut($0)) }) == .failed {
            connection.fail(context)
        }
    }

    public func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard let connection else { return promise?.fail(ChannelError.ioOnClosedChannel) ?? () }
        if connection.write(unwrapOutboundIn(data), context, promise: promise) == .failed { connection.fail(context) }
    }

    public func flush(context: ChannelHandlerContext) { context.flush() }

    public func close(context: ChannelHandlerContext, mode: CloseMode, promise: EventLoopPromise<Void>?) {
        guard let connection else { return context.close(mode: mode, promise: promise) }
        connection.close(context, mode: mode, promise: promise)
    }

    /// The DER of the client's certificate, nil when it sent none.
    private func peerCertificateDER(_ ssl: OpaquePointer) -> [UInt8]? {
        var out: UnsafeMutablePointer<UInt8>?
        let n = eid_tls_peer_certificate_der(ssl, &out)
        guard n > 0, let out else { return nil }
        defer { eid_tls_openssl_free(out) }
        return Array(UnsafeBufferPointer(start: out, count: n))
    }
}
