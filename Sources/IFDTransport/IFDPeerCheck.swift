import CLibSSL
import EIDCrypto

/// The checks of a finished handshake, before a byte of the WebSocket goes out (AusweisApp's
/// `ConnectRequest::onConnected` with `TlsChecker`): the phone showed a certificate with an RSA key of at least
/// 2000 bits; on a paired connection the ephemeral key is long enough too, and the certificate's SHA-256 is
/// the pinned one. Returns the certificate's DER.
enum IFDPeerCheck {
    static func inspect(_ ssl: OpaquePointer, security: IFDTLSSecurity) throws(IFDTransportError) -> [UInt8] {
        defer { ERR_clear_error() }
        guard let certificate = SSL_get0_peer_certificate(ssl) else {
            throw .handshakeFailed(alert: nil, reason: "the phone showed no certificate")
        }
        let length = eid_x509_der(certificate, nil)
        guard length > 0 else { throw .handshakeFailed(alert: nil, reason: "the phone's certificate is unreadable") }
        var der = [UInt8](repeating: 0, count: Int(length))
        guard der.withUnsafeMutableBufferPointer({ eid_x509_der(certificate, $0.baseAddress) }) == length else {
            throw .handshakeFailed(alert: nil, reason: "the phone's certificate is unreadable")
        }
        guard let publicKey = X509_get0_pubkey(certificate), EVP_PKEY_is_a(publicKey, "RSA") == 1 else {
            throw .handshakeFailed(alert: nil, reason: "the phone's certificate has no RSA key")
        }
        let bits = Int(EVP_PKEY_get_bits(publicKey))
        guard bits >= IFDMinimumKeySizes.rsa else { throw .weakPeerKey(bits: bits) }
        if case .paired(let pinned) = security {
            if let ephemeral = eid_ssl_peer_tmp_key(ssl) {
                defer { EVP_PKEY_free(ephemeral) }
                let bits = Int(EVP_PKEY_get_bits(ephemeral))
                let minimum = EVP_PKEY_is_a(ephemeral, "DH") == 1 ? IFDMinimumKeySizes.dh : IFDMinimumKeySizes.ec
                guard bits >= minimum else { throw .weakPeerKey(bits: bits) }
            }
            let hash: [UInt8]
            do { hash = try Digest.sha256.hash(der) } catch { throw .tlsConfiguration("EVP_Digest") }
            guard hash == pinned else { throw .certificateChanged }
        }
        return der
    }
}
