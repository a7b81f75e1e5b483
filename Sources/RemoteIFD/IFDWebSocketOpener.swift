import IFDTransport
import SmartCard

#if canImport(Glibc)
import Glibc
#endif

/// Opens channels to phones with IFDTransport (TLS 1.2, WebSocket) and eid's own identity, kept
/// in the paired phones' directory (made on first use: an RSA 3072 key). The transport's errors
/// become `RemoteIFDError`s that say what to do.
public struct IFDWebSocketOpener: IFDChannelOpener {
    public let directory: String

    public init(directory: String) { self.directory = directory }

    public func openPairing(address: String, code: Secret, timeout: Double) throws -> (
        channel: any IFDMessageChannel, peerCertificate: [UInt8]
    ) {
        do {
            let socket = try IFDWebSocket.open(
                url: address, security: .pairing(code: code), identity: identity(), timeout: timeout)
            return (socket, socket.peerCertificateDER)
        } catch {
            switch error {
            case .pairingRefused, .handshakeFailed:
                throw RemoteIFDError.pairingRefused(address: address, error.description)
            default:
                throw RemoteIFDError.unreachable(address: address, error.description)
            }
        }
    }

    public func open(address: String, certificateSHA256: [UInt8], timeout: Double) throws -> any IFDMessageChannel {
        do {
            return try IFDWebSocket.open(
                url: address, security: .paired(pinnedCertificateSHA256: certificateSHA256), identity: identity(),
                timeout: timeout)
        } catch {
            switch error {
            case .clientCertificateRefused, .certificateChanged:
                throw RemoteIFDError.notPaired(phone: address, error.description)
            default:
                throw RemoteIFDError.unreachable(address: address, error.description)
            }
        }
    }

    private func identity() throws(IFDTransportError) -> IFDClientIdentity {
        try IFDClientIdentity.loadOrCreate(directory: directory)
    }

    /// This computer's name as the phones show it (AusweisApp: the device name, by default the
    /// host name).
    public static func localName() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "eid" }
        let name = String(cString: buffer)
        return name.isEmpty ? "eid" : name
    }
}
