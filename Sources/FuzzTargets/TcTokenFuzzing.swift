import Online

/// A TcToken document as the client fetches it, and the CommunicationErrorAddress it looks for
/// in a refused one.
enum TcTokenFuzzing {
    static func run(_ data: [UInt8]) {
        _ = try? TcToken.parse(data)
        _ = TcToken.communicationErrorAddress(ofRefused: data)
    }
}
