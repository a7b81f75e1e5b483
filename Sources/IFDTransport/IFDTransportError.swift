/// What goes wrong on the secure pipe to a phone as card reader (TR-03112-6 IFD over wss): each case says
/// what happened and what to do; none carries a secret (the pairing code never appears).
public enum IFDTransportError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The address is not `wss://host:port`.
    case invalidAddress(String)
    /// The pairing code is not the 4 digits a phone shows.
    case invalidPairingCode
    /// libssl could not be loaded: what is missing, what to install.
    case libraryMissing(String)
    /// OpenSSL refused eid's TLS settings or identity (the function that failed).
    case tlsConfiguration(String)
    /// No TCP connection to the phone.
    case connectionFailed(host: String, port: Int, reason: String)
    /// A bounded wait ran out; the connection is closed unless `stage` is `.receive`.
    case timedOut(IFDTransportStage, seconds: Double)
    /// Pairing: the phone refused the handshake with the PSK (wrong code, or no longer in pairing mode).
    case pairingRefused(alert: Int?)
    /// The phone refused eid's client certificate (TLS alert): it does not know this computer (any more).
    case clientCertificateRefused(alert: Int)
    /// Paired: the phone's certificate is not the pinned one.
    case certificateChanged
    /// The phone's certificate or ephemeral key is shorter than AusweisApp accepts.
    case weakPeerKey(bits: Int)
    /// Any other TLS handshake failure: the alert the phone sent, if any, and OpenSSL's reason.
    case handshakeFailed(alert: Int?, reason: String)
    /// The phone answered the WebSocket upgrade with another HTTP status than 101.
    case upgradeRefused(status: Int)
    /// The phone closed the connection (a WebSocket close code, if it sent one).
    case closed(code: Int?)
    /// The phone sent a fatal TLS alert on the established connection.
    case tlsAlert(Int)
    /// The phone answered no WebSocket ping within the keep-alive time.
    case peerUnresponsive
    /// The phone broke the WebSocket or TLS protocol (what was wrong).
    case protocolViolation(String)
    /// eid's own key and certificate could not be read (the file, why).
    case identityUnreadable(path: String, reason: String)
    /// eid's key file or its directory may be read or written by others (the path, its mode).
    case identityPermissions(path: String, mode: UInt32)
    /// eid's key file is not a key and its certificate (the file, what is wrong).
    case identityCorrupt(path: String, reason: String)
    /// eid's key and certificate could not be written (the path, why).
    case identityNotWritable(path: String, reason: String)

    public var description: String {
        switch self {
        case .invalidAddress(let address):
            return "'\(address)' is not a phone's address: expected wss://HOST:PORT, as the phone announces it"
        case .invalidPairingCode:
            return "the pairing code is the 4 digits the phone shows while it is in pairing mode"
        case .libraryMissing(let problem): return problem
        case .tlsConfiguration(let function):
            return "OpenSSL refused eid's TLS settings (\(function)); check that libssl3 is OpenSSL 3.0 or newer"
        case .connectionFailed(let host, let port, let reason):
            return "cannot connect to the phone at \(host):\(port) (\(reason)); is it on the same network, "
                + "with AusweisApp's card reader mode open?"
        case .timedOut(let stage, let seconds):
            return "the phone did not answer within \(seconds.formatted) s (\(stage.rawValue)); "
                + "is AusweisApp still open on it and the phone on the same network?"
        case .pairingRefused(let alert):
            return "the phone refused pairing\(alert.map { " (TLS alert \($0))" } ?? ""): the pairing code was wrong "
                + "or the phone left pairing mode; start pairing on the phone again and type the code it shows"
        case .clientCertificateRefused(let alert):
            return "the phone does not know this computer (TLS alert \(alert)): it was unpaired on the phone; "
                + "pair again (eid pair)"
        case .certificateChanged:
            return "this phone's certificate changed: it is another device or AusweisApp was reset on it; pair again"
        case .weakPeerKey(let bits):
            return "the phone's key has \(bits) bits, fewer than AusweisApp accepts; update AusweisApp on the phone"
        case .handshakeFailed(let alert, let reason):
            return "the TLS handshake with the phone failed\(alert.map { " (TLS alert \($0))" } ?? ""): \(reason); "
                + "if the phone is in pairing mode, pair again (eid pair)"
        case .upgradeRefused(let status):
            return "the phone refused the WebSocket connection (HTTP \(status)); is it a card reader in AusweisApp?"
        case .closed(let code):
            return "the phone closed the connection\(code.map { " (WebSocket close code \($0))" } ?? ""); "
                + "open AusweisApp's card reader mode on it again"
        case .tlsAlert(let alert):
            return "the phone ended the TLS connection (alert \(alert)); connect again"
        case .peerUnresponsive:
            return "the phone stopped answering (no WebSocket pong); is it still on the network, with AusweisApp open?"
        case .protocolViolation(let what):
            return "the phone broke the protocol (\(what)); connect again, or update AusweisApp on the phone"
        case .identityUnreadable(let path, let reason):
            return "cannot read eid's key and certificate for phones at \(path) (\(reason))"
        case .identityPermissions(let path, let mode):
            return "\(path) has mode \(String(mode & 0o7777, radix: 8)), so others may read or change eid's key for "
                + "phones; make it only yours (chmod \(mode & 0o170000 == 0o040000 ? "700" : "600") \(path))"
        case .identityCorrupt(let path, let reason):
            return "\(path) is not eid's key and certificate for phones (\(reason)); remove it (eid makes a new one) "
                + "and pair your phones again"
        case .identityNotWritable(let path, let reason):
            return "cannot write eid's key and certificate for phones to \(path) (\(reason))"
        }
    }
}

/// Where a bounded wait of the pipe ran out.
public enum IFDTransportStage: String, Sendable {
    /// TCP connect, TLS handshake and the WebSocket upgrade.
    case open = "connecting"
    case send = "sending"
    case receive = "waiting for a message"
}

extension Double {
    /// A duration for a sentence: "5", "0.25".
    fileprivate var formatted: String {
        self == rounded() && abs(self) < 1e9 ? String(Int(self)) : String(self)
    }
}
