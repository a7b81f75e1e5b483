import NIOHTTP1

#if canImport(Glibc)
import Glibc
#endif

/// The headers every answer of the local service carries (AusweisApp 1.26.2 and 2.5): `Server`,
/// `Date`, `Connection: close`, no caching; the CORS pair on the answers a web page may read.
enum ServiceResponse {
    static func headers(server: String, cors: Bool) -> HTTPHeaders {
        var headers = HTTPHeaders()
        headers.add(name: "Server", value: server)
        headers.add(name: "Date", value: httpDate())
        headers.add(name: "Connection", value: "close")
        headers.add(name: "Cache-Control", value: "no-cache, no-store")
        headers.add(name: "Pragma", value: "no-cache")
        if cors {
            headers.add(name: "Access-Control-Allow-Origin", value: "*")
            headers.add(name: "Access-Control-Allow-Private-Network", value: "true")
        }
        return headers
    }

    /// Now as an HTTP date (RFC 9110 IMF-fixdate), through the C library in the C locale.
    static func httpDate() -> String {
        var now = time(nil)
        var parts = tm()
        gmtime_r(&now, &parts)
        var buffer = [CChar](repeating: 0, count: 64)
        let count = strftime(&buffer, buffer.count, "%a, %d %b %Y %H:%M:%S GMT", &parts)
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
