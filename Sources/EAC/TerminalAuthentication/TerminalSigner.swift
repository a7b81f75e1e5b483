import EIDCrypto

/// Who makes the EXTERNAL AUTHENTICATE signature: the terminal's private key is not the eID
/// client's. In an online authentication the eID server signs (its EAC2 `Signature`); in tests
/// and in the test server a key at hand does (`KeyTerminalSigner`).
public protocol TerminalSigner {
    /// The plain signature r ‖ s over `input.bytes` with the terminal certificate's key.
    func signature(for input: TerminalAuthenticationSignatureInput) throws -> [UInt8]
}

/// A signer that holds the terminal's private key.
public struct KeyTerminalSigner: TerminalSigner {
    public let privateKey: ECPrivateKey
    public let algorithm: TAAlgorithm

    public init(privateKey: ECPrivateKey, algorithm: TAAlgorithm) {
        self.privateKey = privateKey
        self.algorithm = algorithm
    }

    public func signature(for input: TerminalAuthenticationSignatureInput) throws -> [UInt8] {
        try input.sign(with: privateKey, algorithm: algorithm)
    }
}

/// A signer that asks a closure (e.g. one that forwards the input to the eID server and returns
/// the signature it sent).
public struct ClosureTerminalSigner: TerminalSigner {
    let body: (TerminalAuthenticationSignatureInput) throws -> [UInt8]

    public init(_ body: @escaping (TerminalAuthenticationSignatureInput) throws -> [UInt8]) { self.body = body }

    public func signature(for input: TerminalAuthenticationSignatureInput) throws -> [UInt8] { try body(input) }
}
