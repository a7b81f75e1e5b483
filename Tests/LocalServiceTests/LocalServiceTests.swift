import Foundation
import LocalService
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The transport on a real loopback socket with a delegate of the test's own: the answers'
/// order and framing, the request limits.
@Suite struct LocalServiceTests {
    /// Answers an activation with a 303 after a moment; refuses SDK clients.
    struct Delegate: LocalServiceDelegate {
        func status(json: Bool) -> String { json ? "{}" : "Name: test\n" }

        func activate(tcTokenURL: String, finish: @escaping @Sendable (ActivationAnswer) -> Void) -> ActivationStart {
            if tcTokenURL == "https://busy.example/" { return .busy }
            DispatchQueue.global().asyncAfter(deadline: .now() + 0.2) {
                finish(.seeOther(location: "https://service.example/refresh?ResultMajor=ok"))
            }
            return .started
        }

        var acceptsSDKClient: Bool { false }

        func openSDKClient(send: @escaping @Sendable (String) -> Void, close: @escaping @Sendable () -> Void)
            -> (any SDKClient)?
        { nil }
    }

    func withService(_ body: (Int) throws -> Void) throws {
        let service = LocalService(
            configuration: .init(server: "test", requestTimeout: 0.5), delegate: Delegate())
        let port = try service.listen(hosts: ["127.0.0.1"], port: 0)
        defer { service.stop() }
        try body(port)
    }

    /// Sends `request` and reads until the server closes (at most 5 s); nil when it did not close.
    func exchange(_ port: Int, _ request: String) -> String? {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
        guard connected else { return nil }
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        _ = request.utf8CString.withUnsafeBufferPointer { send(fd, $0.baseAddress, $0.count - 1, 0) }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = recv(fd, &buffer, buffer.count, 0)
            if n == 0 { return String(decoding: received, as: UTF8.self) }
            if n < 0 { return nil }
            received += buffer[0..<n]
        }
    }

    @Test func anActivationIsAnsweredWith102ThenThe303() throws {
        try withService { port in
            let answer = try #require(
                exchange(
                    port,
                    "GET /eID-Client?tcTokenURL=https%3A%2F%2Fa.example%2F HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n")
            )
            // The interim answer carries Server and Date too, as AusweisApp's.
            #expect(answer.hasPrefix("HTTP/1.1 102 Processing\r\nServer: test\r\nDate: "))
            #expect(answer.contains(" GMT\r\n\r\nHTTP/1.1 303 See Other\r\n"))
            #expect(answer.contains("Location: https://service.example/refresh?ResultMajor=ok\r\n"))
            #expect(answer.contains("Connection: close\r\n"))
        }
    }

    @Test func anHTTP10ClientGetsNoInterimAnswer() throws {
        try withService { port in
            let answer = try #require(
                exchange(
                    port,
                    "GET /eID-Client?tcTokenURL=https%3A%2F%2Fa.example%2F HTTP/1.0\r\nHost: 127.0.0.1:\(port)\r\n\r\n")
            )
            #expect(answer.hasPrefix("HTTP/1.0 303 See Other\r\n") || answer.hasPrefix("HTTP/1.1 303 See Other\r\n"))
            #expect(!answer.contains("102"))
        }
    }

    @Test func busyIs409() throws {
        try withService { port in
            let answer = try #require(
                exchange(
                    port,
                    "GET /eID-Client?tcTokenURL=https%3A%2F%2Fbusy.example%2F HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n"
                ))
            #expect(answer.hasPrefix("HTTP/1.1 409 Conflict\r\n"))
        }
    }

    @Test func aRequestThatDoesNotArriveInTimeIsClosed() throws {
        try withService { port in
            let started = Date()
            let answer = exchange(port, "GET /eID-Client?Status HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n")
            #expect(answer == "")
            #expect(Date().timeIntervalSince(started) < 4)
        }
    }

    @Test func aLargeBodyIsRefused() throws {
        try withService { port in
            let body = String(repeating: "x", count: 8192)
            let answer = try #require(
                exchange(
                    port,
                    "POST /eID-Client HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nContent-Length: \(body.utf8.count)\r\n\r\n"
                        + body))
            #expect(answer.hasPrefix("HTTP/1.1 413 Payload Too Large\r\n"))
        }
    }
}
