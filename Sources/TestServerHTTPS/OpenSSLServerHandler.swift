import CTestServerTLS
import NIOCore

/// The TLS server side of one connection, OpenSSL driven through memory BIOs: ciphertext from
/// the socket goes into the read BIO, plaintext comes out of SSL_read and goes up the pipeline
/// (to the HTTP decoder); plaintext going down is SSL_write'd and the write BIO's records go to
/// the socket. A failed handshake or a broken record closes the connection; OpenSSL's error
/// queue is cleared, nothing secret is logged. Lives on its channel's event loop only.
public final class OpenSSLServerHandler: ChannelDuplexHandler, RemovableChannelHandler {
    public typealias InboundIn = ByteBuffer
    public typealias InboundOut = ByteBuffer
    public typealias OutboundIn = ByteBuffer
    public typealias OutboundOut = ByteBuffer

    private let context: TLSServerContext
    private let statistics: FrontEndStatistics?
    private var ssl: OpaquePointer?
    private var readBIO: OpaquePointer?
    private var writeBIO: OpaquePointer?
    private var established = false
    private var closing = false

    public init(context: TLSServerContext, statistics: FrontEndStatistics? = nil) {
        self.context = context
        self.statistics = statistics
    }

    public func handlerAdded(context: ChannelHandlerContext) {
        var rbio: OpaquePointer?
        var wbio: OpaquePointer?
        guard let ssl = eid_tls_server_connection(self.context.handle, &rbio, &wbio) else {
            ERR_clear_error()
            context.close(promise: nil)
            return
        }
        self.context.nextConnection.apply(to: ssl)
        self.ssl = ssl
        readBIO = rbio
        writeBIO = wbio
    }

    public func handlerRemoved(context: ChannelHandlerContext) {
        if let ssl { SSL_free(ssl) }  // frees both BIOs
        ssl = nil
    }

    public func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard let ssl, let readBIO, !closing else { return }
        let bytes = unwrapInboundIn(data)
        let written = bytes.withUnsafeReadableBytes { BIO_write(readBIO, $0.baseAddress, Int32($0.count)) }
        guard written == bytes.readableBytes else { return fail(context) }
        if !established {
            let result = SSL_do_handshake(ssl)
            flushRecords(context)
            if result != 1 {
                if SSL_get_error(ssl, result) != SSL_ERROR_WANT_READ { fail(context) }
                return
            }
            established = true
            statistics?.handshakeCompleted(resumed: SSL_session_reused(ssl) == 1)
            let identity = eid_tls_psk_identity(ssl).map { String(cString: $0) }
            let cipher = eid_tls_cipher_name(ssl).map { String(cString: $0) } ?? ""
            context.fireUserInboundEventTriggered(
                TLSEstablished(
                    pskIdentity: identity, resumed: SSL_session_reused(ssl) == 1, cipher: cipher,
                    peerCertificateDER: peerCertificateDER(ssl)))
        }
        readPlaintext(context)
    }

    private func readPlaintext(_ context: ChannelHandlerContext) {
        // `ssl` is looked up each round: a handler above may take this one out (and free it) while it reads.
        while !closing, let ssl {
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
            return fail(context)
        }
    }

    public func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard let ssl, established, !closing else {
            promise?.fail(ChannelError.ioOnClosedChannel)
            return
        }
        let plaintext = unwrapOutboundIn(data)
        var ok = true
        plaintext.withUnsafeReadableBytes { raw in
            var offset = 0
            while offset < raw.count {
                var written = 0
                guard SSL_write_ex(ssl, raw.baseAddress! + offset, raw.count - offset, &written) == 1 else {
                    ok = false
                    return
                }
                offset += written
            }
        }
        guard ok else {
            promise?.fail(ChannelError.ioOnClosedChannel)
            return fail(context)
        }
        writeRecords(context, promise: promise)
    }

    public func flush(context: ChannelHandlerContext) { context.flush() }

    public func close(context: ChannelHandlerContext, mode: CloseMode, promise: EventLoopPromise<Void>?) {
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

    /// The DER of the client's certificate, nil when it sent none.
    private func peerCertificateDER(_ ssl: OpaquePointer) -> [UInt8]? {
        var out: UnsafeMutablePointer<UInt8>?
        let n = eid_tls_peer_certificate_der(ssl, &out)
        guard n > 0, let out else { return nil }
        defer { eid_tls_openssl_free(out) }
        return Array(UnsafeBufferPointer(start: out, count: n))
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

    /// A handshake failure or broken record: send any alert OpenSSL made, then close.
    private func fail(_ context: ChannelHandlerContext) {
        ERR_clear_error()
        guard !closing else { return }
        closing = true
        flushRecords(context)
        context.close(promise: nil)
    }
}
