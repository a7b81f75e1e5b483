import CLibSSL
import NIOCore

/// One TLS connection of OpenSSL through two memory BIOs, as a SwiftNIO handler drives it (eid-testserver's
/// `OpenSSLServerHandler`, IFDTransport's `OpenSSLClientHandler`): ciphertext from the socket into the read
/// BIO, plaintext out of SSL_read and up the pipeline; plaintext going down through SSL_write, and what
/// OpenSSL queued in the write BIO (handshake messages, records, alerts) to the socket; close_notify on close.
/// The handler runs the handshake and judges failures; this moves the bytes and keeps whether the connection is
/// established or closing. Owns the SSL object (made by the handler's target; freed in `release`). Lives on the
/// channel's event loop only.
public final class MemoryBIOConnection {
    public let ssl: OpaquePointer
    private let readBIO: OpaquePointer
    private let writeBIO: OpaquePointer
    private var released = false
    /// The handshake is done (the handler says so).
    public var established = false
    /// The connection is being closed: nothing more is read or written.
    public private(set) var closing = false

    /// How reading plaintext ended.
    public enum ReadEnd: Equatable {
        /// All records read: wait for more bytes.
        case wantRead
        /// The peer's close_notify: the connection is being closed.
        case closeNotify
        /// A broken record or a fatal alert: the handler reads OpenSSL's reason, then calls `fail`.
        case failed
    }

    /// How a write went.
    public enum WriteOutcome: Equatable {
        case written
        /// Not established, or closing: the promise failed, nothing else to do.
        case notOpen
        /// OpenSSL refused: the promise failed; the handler reads OpenSSL's reason, then calls `fail`.
        case failed
    }

    /// The connection of `ssl`, whose records go through `readBIO` (from the peer) and `writeBIO` (to it).
    public init(ssl: OpaquePointer, readBIO: OpaquePointer, writeBIO: OpaquePointer) {
        self.ssl = ssl
        self.readBIO = readBIO
        self.writeBIO = writeBIO
    }

    /// Frees the SSL object and both BIOs (the handler is removed); again does nothing.
    public func release() {
        guard !released else { return }
        released = true
        closing = true
        SSL_free(ssl)
    }

    deinit { release() }

    /// Puts ciphertext from the peer into the read BIO; false when not all of it was taken.
    public func feed(_ bytes: ByteBuffer) -> Bool {
        let written = bytes.withUnsafeReadableBytes { BIO_write(readBIO, $0.baseAddress, Int32($0.count)) }
        return written == bytes.readableBytes
    }

    /// SSL_read until there is no more plaintext, each piece to `deliver`; the records OpenSSL queued on the way
    /// are sent; after the peer's close_notify the connection is closed.
    public func readPlaintext(_ context: ChannelHandlerContext, deliver: (ByteBuffer) -> Void) -> ReadEnd {
        while !closing {
            var buffer = context.channel.allocator.buffer(capacity: 16 * 1024)
            var result: Int32 = 0
            _ = buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: 16 * 1024) { raw in
                result = SSL_read(ssl, raw.baseAddress, Int32(min(raw.count, 16 * 1024)))
                return Int(max(0, result))
            }
            if result > 0 {
                deliver(buffer)
                continue
            }
            let error = SSL_get_error(ssl, result)
            flushRecords(context)
            if error == SSL_ERROR_WANT_READ { return .wantRead }
            guard error == SSL_ERROR_ZERO_RETURN else { return .failed }
            closing = true
            context.close(promise: nil)
            return .closeNotify
        }
        return .wantRead
    }

    /// SSL_write of all of `plaintext`, its records then written with `promise`.
    public func write(_ plaintext: ByteBuffer, _ context: ChannelHandlerContext, promise: EventLoopPromise<Void>?)
        -> WriteOutcome
    {
        guard established, !closing else {
            promise?.fail(ChannelError.ioOnClosedChannel)
            return .notOpen
        }
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
            return .failed
        }
        writeRecords(context, promise: promise)
        return .written
    }

    /// Closes the connection, with close_notify first when it is established.
    public func close(_ context: ChannelHandlerContext, mode: CloseMode, promise: EventLoopPromise<Void>?) {
        if established, !closing {
            closing = true
            _ = SSL_shutdown(ssl)
            ERR_clear_error()
            writeRecords(context, promise: nil)
            context.flush()
        }
        closing = true
        context.close(mode: mode, promise: promise)
    }

    /// A handshake failure or broken record: sends any alert OpenSSL made, then closes (once). OpenSSL's error
    /// queue is cleared.
    public func fail(_ context: ChannelHandlerContext) {
        ERR_clear_error()
        guard !closing else { return }
        closing = true
        flushRecords(context)
        context.close(promise: nil)
    }

    /// Sends what OpenSSL has queued in the write BIO, and flushes when there was something.
    public func flushRecords(_ context: ChannelHandlerContext) {
        if writeRecords(context, promise: nil) { context.flush() }
    }

    /// Writes what OpenSSL has queued in the write BIO (completing `promise` with it, or at once when there is
    /// nothing); whether there was something.
    @discardableResult
    private func writeRecords(_ context: ChannelHandlerContext, promise: EventLoopPromise<Void>?) -> Bool {
        let pending = Int(BIO_ctrl_pending(writeBIO))
        guard pending > 0 else {
            promise?.succeed()
            return false
        }
        var buffer = context.channel.allocator.buffer(capacity: pending)
        _ = buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: pending) { raw in
            Int(max(0, BIO_read(writeBIO, raw.baseAddress, Int32(pending))))
        }
        context.write(NIOAny(buffer), promise: promise)
        return true
    }
}
