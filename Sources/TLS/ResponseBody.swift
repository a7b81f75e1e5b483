import CCurl

/// A response body as libcurl hands it over, piece by piece. It grows by hand so that the buffer
/// it leaves behind is zeroed before it is freed (a TcToken's body holds the TLS-2 PSK), and
/// `take()` moves it out, so the receiver holds the only reference and can zero it in place.
struct ResponseBody {
    private(set) var bytes: [UInt8] = []

    var count: Int { bytes.count }

    mutating func append(_ piece: UnsafeRawBufferPointer) {
        if bytes.count + piece.count > bytes.capacity {
            var grown: [UInt8] = []
            grown.reserveCapacity(max(bytes.capacity * 2, bytes.count + piece.count, 4096))
            grown.append(contentsOf: bytes)
            bytes.withUnsafeMutableBytes { OPENSSL_cleanse($0.baseAddress, $0.count) }
            bytes = grown
        }
        bytes.append(contentsOf: piece)
    }

    /// The bytes, leaving the body empty.
    mutating func take() -> [UInt8] {
        let taken = bytes
        bytes = []
        return taken
    }
}
