/// A response APDU: response data followed by the status word.
public struct ResponseAPDU: Equatable, Sendable {
    public var data: [UInt8]
    public var statusWord: StatusWord

    public init(data: [UInt8] = [], statusWord: StatusWord) {
        self.data = data
        self.statusWord = statusWord
    }

    /// Parses the bytes a reader returns. Fewer than two bytes is not a response.
    public init(bytes: [UInt8]) throws {
        guard bytes.count >= 2 else { throw CardError.malformedResponse("\(bytes.count) byte(s), need at least 2") }
        data = Array(bytes[..<(bytes.count - 2)])
        statusWord = StatusWord(sw1: bytes[bytes.count - 2], sw2: bytes[bytes.count - 1])
    }

    public var bytes: [UInt8] { data + [statusWord.sw1, statusWord.sw2] }

    public var isSuccess: Bool { statusWord.isSuccess }

    /// Returns self when the status word is 9000, or throws `CardError.statusWord`.
    @discardableResult
    public func checkSuccess() throws -> ResponseAPDU {
        guard isSuccess else { throw CardError.statusWord(statusWord) }
        return self
    }
}
