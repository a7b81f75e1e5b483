import SmartCard

/// The TcToken of TR-03124 (docs/protocol.md, "TcToken"): where the eID server is, the session, where
/// the browser goes afterwards and, for TLS-PSK, the key. `parse` applies the validation rules
/// of "TcToken validation" (rule 7, which needs the tcTokenURL, is `checkAttachedServer(tcTokenURL:)`);
/// `encoded()` writes a token as eid-testserver serves it.
public struct TcToken: Sendable {
    public static let paosBinding = "urn:liberty:paos:2006-08"
    public static let tlsPSKProtocol = "urn:ietf:rfc:4279"
    /// A TcToken is a few hundred bytes; anything beyond this is refused unread.
    public static let maximumSize = 64 * 1024
    public static let maximumPSKLength = 256
    public static let maximumSessionIdentifierLength = 256

    /// The eID server's PAOS endpoint (https); every PAOS message is POSTed to exactly this URL.
    public var serverAddress: String
    /// Goes into StartPAOS and is the TLS-PSK identity, its bytes as given.
    public var sessionIdentifier: String
    /// Where the browser goes at the end (https).
    public var refreshAddress: String
    /// Where the browser goes when no refresh address can be found (optional).
    public var communicationErrorAddress: String?
    public var binding: String
    /// `urn:ietf:rfc:4279` or absent. Named without a PSK (empty or no PathSecurity-Parameters,
    /// TR-03124-2 EID_CLIENT_A2_19) it is the attached model, as when absent (AusweisApp's too).
    public var pathSecurityProtocol: String?
    /// The TLS-2 pre-shared key; nil for an attached eID server (TLS-1's session is resumed).
    public var psk: Secret?

    public init(
        serverAddress: String, sessionIdentifier: String, refreshAddress: String,
        communicationErrorAddress: String? = nil, binding: String = TcToken.paosBinding, psk: Secret? = nil
    ) {
        self.serverAddress = serverAddress
        self.sessionIdentifier = sessionIdentifier
        self.refreshAddress = refreshAddress
        self.communicationErrorAddress = communicationErrorAddress
        self.binding = binding
        self.pathSecurityProtocol = psk == nil ? nil : TcToken.tlsPSKProtocol
        self.psk = psk
    }

    /// The CommunicationErrorAddress when it can be used: only an https one is ("TcToken validation", rule 5).
    public var usableCommunicationErrorAddress: String? {
        guard let address = communicationErrorAddress, WebOrigin(url: address)?.isHTTPS == true else { return nil }
        return address
    }

    /// The https CommunicationErrorAddress of a TcToken document that was refused (`parse`
    /// threw for another rule), if the document is well-formed XML with exactly one: where
    /// AusweisApp still sends the browser (with communicationError) when the token is unusable.
    public static func communicationErrorAddress(ofRefused bytes: [UInt8]) -> String? {
        // The PSK's text is withheld here too: it never becomes a String.
        let parser = XMLTreeParser(
            maximumSize: maximumSize, maximumDepth: 8, maximumElements: 256, secretElements: ["PSK"])
        guard
            let root = try? parser.parse(bytes),
            root.name == "TCTokenType"
        else { return nil }
        let found = root.children(named: "CommunicationErrorAddress")
        guard found.count == 1, let address = found.first?.trimmedText, WebOrigin(url: address)?.isHTTPS == true else {
            return nil
        }
        return address
    }

    /// Rule 7: without a PSK the PAOS channel resumes the TcToken's TLS channel, so the
    /// ServerAddress must be same-origin with the tcTokenURL.
    public func checkAttachedServer(tcTokenURL: String) throws(TcTokenError) {
        guard psk == nil else { return }
        guard WebOrigin.isSameOrigin(serverAddress, tcTokenURL) else { throw .attachedServerNotSameOrigin }
    }

    /// Parses and validates a TcToken document (docs/protocol.md, "TcToken" and "TcToken validation"),
    /// tolerant of the variants real servers send: surrounding white space in values,
    /// `PathSecurity-Parameter` (singular), the PSK wherever it is, unknown elements (ignored).
    ///
    /// The PSK never becomes a Swift `String`: its text goes from libxml2's tree (zeroed, and
    /// freed through libxml2's wiping memory functions) into locked buffers and the `Secret`.
    public static func parse(_ bytes: [UInt8]) throws(TcTokenError) -> TcToken {
        let root: XMLElement
        // Each PSK element's key, nil where its text is not a valid key.
        var psks: [Secret?] = []
        do {
            root = try XMLTreeParser(
                maximumSize: maximumSize, maximumDepth: 8, maximumElements: 256, secretElements: ["PSK"]
            ).parse(bytes) { _, text in psks.append(pskSecret(hexText: UnsafeBufferPointer(text))) }
        } catch {
            throw .malformedXML(error)
        }
        guard root.name == "TCTokenType" else { throw .wrongRootElement }

        func single(_ name: String) throws(TcTokenError) -> String? {
            let found = root.children(named: name)
            guard found.count <= 1 else { throw .duplicateElement(name) }
            return found.first?.trimmedText
        }
        func required(_ name: String) throws(TcTokenError) -> String {
            guard let value = try single(name) else { throw .missingElement(name) }
            guard !value.isEmpty else { throw .emptyElement(name) }
            return value
        }
        func url(_ name: String, _ value: String, https: Bool) throws(TcTokenError) -> String {
            guard let origin = WebOrigin(url: value) else { throw .invalidURL(name) }
            guard origin.isHTTPS || !https else { throw .notHTTPS(name) }
            return value
        }

        let serverAddress = try required("ServerAddress")
        let sessionIdentifier = try required("SessionIdentifier")
        let refreshAddress = try required("RefreshAddress")
        let binding = try required("Binding")
        guard binding == paosBinding else { throw .unsupportedBinding }
        var pathSecurityProtocol = try single("PathSecurity-Protocol")
        if pathSecurityProtocol?.isEmpty == true { pathSecurityProtocol = nil }
        if let protocolName = pathSecurityProtocol, protocolName != tlsPSKProtocol {
            throw .unsupportedPathSecurityProtocol
        }
        var token = TcToken(
            serverAddress: try url("ServerAddress", serverAddress, https: true),
            sessionIdentifier: sessionIdentifier,
            refreshAddress: try url("RefreshAddress", refreshAddress, https: true))
        token.binding = binding
        token.pathSecurityProtocol = pathSecurityProtocol
        if let address = try single("CommunicationErrorAddress"), !address.isEmpty {
            token.communicationErrorAddress = try url("CommunicationErrorAddress", address, https: false)
        }
        guard sessionIdentifier.utf8.count <= maximumSessionIdentifierLength,
            !sessionIdentifier.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F })
        else { throw .invalidSessionIdentifier }

        let pskElements = root.descendants(named: "PSK")
        guard pskElements.count <= 1 else { throw .duplicateElement("PSK") }
        if !pskElements.isEmpty {
            guard let psk = psks.first ?? nil else { throw .invalidPSK }
            token.psk = psk
        }
        return token
    }

    /// Parses like `parse(_:)` and zeroes `bytes` afterwards, whatever the outcome (the fetched
    /// body: the last copy of the PSK's hex outside the `Secret`). A refused token's usable
    /// CommunicationErrorAddress comes with the error.
    public static func parse(wiping bytes: inout [UInt8]) -> Result<TcToken, RefusedTcToken> {
        defer { Secret.zero(&bytes) }
        do {
            return .success(try parse(bytes))
        } catch {
            return .failure(
                RefusedTcToken(error: error, communicationErrorAddress: communicationErrorAddress(ofRefused: bytes)))
        }
    }

    /// The PSK from the PSK element's text (XML white space around it allowed), decoded into
    /// locked memory: nil unless an even number of hex digits, at most `maximumPSKLength` bytes.
    static func pskSecret(hexText text: UnsafeBufferPointer<UInt8>) -> Secret? {
        let isSpace: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D || $0 == 0x0A }
        guard let first = text.firstIndex(where: { !isSpace($0) }), let last = text.lastIndex(where: { !isSpace($0) })
        else { return nil }
        let hex = text[first...last]
        guard hex.count % 2 == 0, hex.count / 2 <= maximumPSKLength, hex.allSatisfy(\.isHexDigit) else {
            return nil
        }
        let key = LockedBuffer(count: hex.count / 2)
        for i in 0..<key.count {
            key.bytes[i] = hexValue(hex[first + 2 * i]) << 4 | hexValue(hex[first + 2 * i + 1])
        }
        return Secret(consuming: key.bytes)
    }

    private static func hexValue(_ digit: UInt8) -> UInt8 {
        switch digit {
        case 0x30...0x39: return digit - 0x30
        case 0x41...0x46: return digit - 0x41 + 10
        default: return digit - 0x61 + 10
        }
    }

    /// The token as XML (no namespace, as real servers send it), with the PSK in upper-case hex.
    public func encoded() -> [UInt8] {
        var root = XMLElement("TCTokenType")
        root.children.append(.text("ServerAddress", namespace: nil, serverAddress))
        root.children.append(.text("SessionIdentifier", namespace: nil, sessionIdentifier))
        root.children.append(.text("RefreshAddress", namespace: nil, refreshAddress))
        if let communicationErrorAddress {
            root.children.append(.text("CommunicationErrorAddress", namespace: nil, communicationErrorAddress))
        }
        root.children.append(.text("Binding", namespace: nil, binding))
        if let pathSecurityProtocol {
            root.children.append(.text("PathSecurity-Protocol", namespace: nil, pathSecurityProtocol))
        }
        if let psk {
            var hex = psk.withBytes { $0.hexString.uppercased() }
            defer { hex = "" }
            root.children.append(
                XMLElement("PathSecurity-Parameters", children: [.text("PSK", namespace: nil, hex)]))
        } else if pathSecurityProtocol != nil {
            // The protocol named without a key (EID_CLIENT_A2_19): its parameters are empty.
            root.children.append(XMLElement("PathSecurity-Parameters"))
        }
        return Array(XMLWriter(prefixes: []).document(root).utf8)
    }
}

/// A TcToken that `parse(wiping:)` refused, with the address the browser still goes to.
public struct RefusedTcToken: Error {
    public let error: TcTokenError
    public let communicationErrorAddress: String?
}

extension XMLElement {
    /// Every element below this one with this local name, depth first.
    func descendants(named name: String) -> [XMLElement] {
        var found: [XMLElement] = []
        for child in children {
            if child.name == name { found.append(child) }
            found += child.descendants(named: name)
        }
        return found
    }
}

extension UInt8 {
    var isHexDigit: Bool {
        (0x30...0x39).contains(self) || (0x41...0x46).contains(self) || (0x61...0x66).contains(self)
    }
}
