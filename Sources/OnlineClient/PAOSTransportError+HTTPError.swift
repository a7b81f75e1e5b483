import Online
import TLS

extension PAOSTransportError {
    /// The transport's reason for an HTTP/TLS failure: what went wrong, never key material.
    public init(_ error: HTTPError) {
        switch error {
        case .invalidURL(let url): self = .notHTTPS(url: url)
        case .notHTTPS(let url): self = .notHTTPS(url: url)
        case .hostNotFound(let host): self = .hostNotFound(host: host)
        case .connectionFailed, .connectionLost: self = .connectionFailed
        case .connectTimedOut, .timedOut: self = .timedOut
        case .responseTooLarge(let limit): self = .responseTooLarge(limit: limit)
        case .tooManyRedirects, .redirectWithoutLocation: self = .badRedirect
        case .invalidHeader: self = .connectionFailed
        case .tls(.certificateNotInDescription): self = .certificateNotInDescription
        case .tls(let tls): self = .tlsRefused(reason: tls.description)
        case .cancelled: self = .cancelled
        case .transferFailed: self = .connectionFailed
        case .libraryMissing(let problem): self = .clientLibraryMissing(problem)
        case .invalidProxy, .unsupportedProxy, .proxyNotFound, .proxyConnectionFailed, .proxyRefused:
            self = .proxyFailed(reason: error.description)
        }
    }
}
