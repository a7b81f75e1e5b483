import COpenPACE
import EAC
import EIDCrypto
import OpenPACEPeer
import Testing

/// OpenPACE's library (libeac) parses the certificates eid issues (CVC_d2i_CVC_CERT) and
/// verifies their signatures (CVC_verify_signature) with keys it extracts itself, the DV's and
/// terminal's on the CVCA's domain parameters (CVC_pubkey2pkey).
@Suite("Peer: OpenPACE's libeac parses and verifies certificates eid issues")
struct OpenPACECVCPeerTests {
    /// An OpenPACE certificate; freed in deinit.
    final class Certificate {
        let handle: UnsafeMutablePointer<CVC_CERT>

        init(_ bytes: [UInt8]) throws {
            var parsed: UnsafeMutablePointer<CVC_CERT>? = nil
            var consumed = 0
            bytes.withUnsafeBufferPointer { buffer in
                var p: UnsafePointer<UInt8>? = buffer.baseAddress
                parsed = CVC_d2i_CVC_CERT(nil, &p, buffer.count)
                if let p, let base = buffer.baseAddress { consumed = p - base }
            }
            guard let parsed else { throw OpenPACE.Failure(function: "CVC_d2i_CVC_CERT") }
            handle = parsed
            guard consumed == bytes.count else { throw OpenPACE.Failure(function: "CVC_d2i_CVC_CERT (length)") }
        }

        deinit { CVC_CERT_free(handle) }

        var keyNID: Int32 { eid_cvc_key_nid(handle) }

        /// The public key; `base` supplies the domain parameters for DV and terminal keys.
        func publicKey(base: OpaquePointer?) throws -> OpaquePointer {
            let out = base.flatMap { EVP_PKEY_dup($0) }
            guard let key = CVC_pubkey2pkey(handle, nil, out) else {
                throw OpenPACE.Failure(function: "CVC_pubkey2pkey")
            }
            return key
        }

        func isSigned(by key: OpaquePointer, protocol nid: Int32) -> Bool {
            defer { ERR_clear_error() }
            return CVC_verify_signature(handle, nid, key) == 1
        }
    }

    @Test(arguments: [
        (ECCurve.brainpoolP256r1, TAAlgorithm.ecdsaSHA256), (.brainpoolP512r1, .ecdsaSHA512),
        (.secp384r1, .ecdsaSHA384),
    ])
    func verifiesTheIssuedChain(curve: ECCurve, algorithm: TAAlgorithm) throws {
        OpenPACE.initialize()
        let chain = try CVCPrintPeerTests.issue(curve: curve, algorithm: algorithm)
        let cvca = try Certificate(try chain.cvca.encoded)
        let dv = try Certificate(try chain.dv.encoded)
        let terminal = try Certificate(try chain.terminal.encoded)
        #expect(cvca.keyNID != NID_undef && cvca.keyNID == terminal.keyNID)

        let cvcaKey = try cvca.publicKey(base: nil)
        defer { EVP_PKEY_free(cvcaKey) }
        let dvKey = try dv.publicKey(base: cvcaKey)
        defer { EVP_PKEY_free(dvKey) }
        #expect(cvca.isSigned(by: cvcaKey, protocol: cvca.keyNID))
        #expect(dv.isSigned(by: cvcaKey, protocol: cvca.keyNID))
        #expect(terminal.isSigned(by: dvKey, protocol: dv.keyNID))
        // Cross-checks that must fail: the terminal under the CVCA's key, a flipped signature bit.
        #expect(!terminal.isSigned(by: cvcaKey, protocol: cvca.keyNID))
        var signature = chain.terminal.signature
        signature[signature.count - 1] ^= 0x01
        let forged = try Certificate(try CVCertificate(body: chain.terminal.body, signature: signature).encoded)
        #expect(!forged.isSigned(by: dvKey, protocol: dv.keyNID))
    }
}
