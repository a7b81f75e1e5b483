import SmartCard

/// One WebSocket connection to a phone, as the IFD messages see it: text frames out and in, each
/// wait bounded. `IFDTransport`'s `IFDWebSocket` (TLS 1.2 over OpenSSL, NIOWebSocket) is the real
/// one; the tests use an in-process fake.
public protocol IFDMessageChannel: AnyObject {
    /// Sends one text frame; throws when it cannot be sent within `timeout` seconds or the
    /// connection is gone.
    func send(text: String, timeout: Double) throws
    /// The next text frame; throws when none arrives within `timeout` seconds (an error for which
    /// `isTimeout` is true) or when the connection is gone (any other error).
    func receive(timeout: Double) throws -> String
    /// Whether `error`, thrown by `receive`, only says that nothing arrived in time: the
    /// connection is still usable.
    func isTimeout(_ error: any Error) -> Bool
    /// Closes the connection; later calls throw.
    func close()
}

/// How a channel to a phone is opened: the pairing connection (TLS PSK with the code shown on the
/// phone) and the connections of a paired phone (mutual TLS, the phone's certificate pinned).
public protocol IFDChannelOpener: Sendable {
    /// Opens a pairing connection to `address` (wss://host:port) with the pairing code as TLS PSK;
    /// returns the channel and the phone's certificate (DER) as the TLS handshake showed it.
    func openPairing(address: String, code: Secret, timeout: Double) throws -> (
        channel: any IFDMessageChannel, peerCertificate: [UInt8]
    )
    /// Opens a connection to a paired phone at `address`, accepting only the certificate whose
    /// SHA-256 is `certificateSHA256`.
    func open(address: String, certificateSHA256: [UInt8], timeout: Double) throws -> any IFDMessageChannel
}
