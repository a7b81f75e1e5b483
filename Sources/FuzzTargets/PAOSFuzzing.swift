import Online

/// A PAOS message body: parsed as the client and the server do, and a parsed message written
/// out again and re-read (what eid-testserver and eid send must parse).
enum PAOSFuzzing {
    static func run(_ data: [UInt8]) {
        guard let envelope = try? PAOSEnvelope.parse(data) else { return }
        _ = envelope.message.mayFollow(nil)
        _ = try? PAOSEnvelope.parse(envelope.encoded())
    }
}
