/// The secure messaging keys KSenc and KSmac that PACE (and later Chip Authentication) agree
/// on (BSI TR-03110-3, A.2.3 / F). Not printable.
public struct SessionKeys: Equatable, Sendable, CustomStringConvertible, CustomReflectable {
    public let encryption: [UInt8]
    public let mac: [UInt8]

    public init(encryption: [UInt8], mac: [UInt8]) {
        self.encryption = encryption
        self.mac = mac
    }

    public var description: String { "SessionKeys(\(encryption.count * 8)-bit, redacted)" }
    public var customMirror: Mirror { Mirror(self, children: []) }
}
