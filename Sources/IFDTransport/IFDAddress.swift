/// A phone's address as it announces it (`addresses` of REMOTE_IFD): `wss://HOST:PORT`, HOST an IPv4
/// address, an IPv6 address in brackets or a name; nothing after the port but an optional "/".
struct IFDAddress: Equatable, Sendable {
    var host: String
    var port: Int

    init(_ text: String) throws(IFDTransportError) {
        let scheme = "wss://"
        guard text.count <= 300, text.lowercased().hasPrefix(scheme) else { throw .invalidAddress(text) }
        var rest = Substring(text.dropFirst(scheme.count))
        if rest.hasSuffix("/") { rest = rest.dropLast() }
        let hostPart: Substring
        let portPart: Substring
        if rest.hasPrefix("[") {
            guard let close = rest.firstIndex(of: "]"), rest[rest.index(after: close)...].hasPrefix(":") else {
                throw .invalidAddress(text)
            }
            hostPart = rest[rest.index(after: rest.startIndex)..<close]
            portPart = rest[rest.index(close, offsetBy: 2)...]
            guard hostPart.allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." }) else { throw .invalidAddress(text) }
        } else {
            guard let colon = rest.lastIndex(of: ":") else { throw .invalidAddress(text) }
            hostPart = rest[..<colon]
            portPart = rest[rest.index(after: colon)...]
            let allowed = { (c: Character) in c.isASCII && (c.isLetter || c.isNumber || c == "." || c == "-") }
            guard hostPart.allSatisfy(allowed) else { throw .invalidAddress(text) }
        }
        guard !hostPart.isEmpty, (1...5).contains(portPart.count), portPart.allSatisfy({ $0.isASCII && $0.isNumber }),
            let port = Int(portPart), (1...65535).contains(port)
        else { throw .invalidAddress(text) }
        host = String(hostPart)
        self.port = port
    }

    /// The Host header of the upgrade request, as Qt's QWebSocket writes it: host and port.
    var hostHeader: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}
