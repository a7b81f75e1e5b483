import EIDCrypto
import SmartCard

/// A `CardChannel` that protects every command and unprotects every response with AES secure
/// messaging (BSI TR-03110-3, appendix F; ICAO 9303-11, 9.8) over another channel. Any error
/// (bad MAC, an unprotected answer, a transport failure) closes the channel for good: later
/// transmits throw `SecureMessagingError.channelClosed`. Closing (by an error, `close()`, or
/// the channel going away) wipes the session keys.
public final class SecureMessaging: CardChannel {
    public let underlying: CardChannel
    private var session: SecureMessagingSession
    public private(set) var isClosed = false

    public init(wrapping channel: CardChannel, keys: SessionKeys, ssc: [UInt8] = [UInt8](repeating: 0, count: 16)) {
        underlying = channel
        session = SecureMessagingSession(keys: keys, ssc: ssc)
    }

    public var supportsExtendedLength: Bool { underlying.supportsExtendedLength }

    /// The current send sequence counter.
    public var ssc: [UInt8] { session.ssc }

    public func transmit(_ command: CommandAPDU) throws -> ResponseAPDU {
        guard !isClosed else { throw SecureMessagingError.channelClosed }
        do {
            let protected = try session.protect(command)
            if protected.isExtendedLength && !underlying.supportsExtendedLength {
                throw SecureMessagingError.commandTooLong
            }
            let response: ResponseAPDU
            do { response = try underlying.transmit(protected) } catch let e as CardError {
                throw SecureMessagingError.transport(e)
            }
            return try session.unprotect(response)
        } catch let e as SecureMessagingError {
            close()
            throw e
        } catch let e as CryptoError {
            close()
            throw SecureMessagingError.crypto(e)
        } catch {
            close()
            throw error
        }
    }

    /// Continues with new keys and SSC 0 (after Chip Authentication).
    public func restart(keys: SessionKeys) {
        session.restart(keys: keys)
    }

    /// The keys the session runs with (wiped once the channel is closed).
    public var keys: SessionKeys { session.keys }

    /// Ends secure messaging and wipes the session keys; later transmits fail.
    public func close() {
        isClosed = true
        session.keys.wipe()
    }

    deinit { session.keys.wipe() }
}
