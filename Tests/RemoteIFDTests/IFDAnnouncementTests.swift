import SmartCard
import Testing

@testable import RemoteIFD

#if canImport(Glibc)
import Glibc
#endif

@Suite struct IFDAnnouncementTests {
    static let id = String(repeating: "0123456789ABCDEF", count: 4)

    static func datagram(_ text: String) -> [UInt8] { Array(text.utf8) }

    @Test func v2AnnouncementWithAddresses() throws {
        let text =
            #"{"msg":"REMOTE_IFD","IFDName":"Pixel","IFDID":"\#(Self.id)","port":24728,"SupportedAPI":["IFDInterface_WebSocket_v2"],"addresses":["wss://192.168.1.20:24728","wss://[fe80::1]:24728"],"pairing":true}"#
        let announcement = try #require(IFDAnnouncement(datagram: Self.datagram(text), sender: "192.168.1.20"))
        #expect(announcement.name == "Pixel")
        #expect(announcement.ifdID == Self.id.lowercased())
        #expect(announcement.pairing)
        #expect(announcement.isSupported)
        #expect(announcement.addresses == ["wss://192.168.1.20:24728", "wss://[fe80::1]:24728"])
    }

    @Test func missingAddressesMeansTheSender() throws {
        let text =
            #"{"msg":"REMOTE_IFD","IFDName":"Pixel","IFDID":"\#(Self.id)","port":24728,"SupportedAPI":["IFDInterface_WebSocket_v0"]}"#
        let announcement = try #require(IFDAnnouncement(datagram: Self.datagram(text), sender: "10.0.0.5"))
        #expect(announcement.addresses == ["wss://10.0.0.5:24728"])
        #expect(!announcement.pairing)
        #expect(!announcement.isSupported)
    }

    @Test func pemIFDIDIsHashed() throws {
        // "hello" in base64: the IFDID is the SHA-256 of the decoded bytes.
        let pem = "-----BEGIN CERTIFICATE-----\\naGVs\\nbG8=\\n-----END CERTIFICATE-----\\n"
        let text =
            #"{"msg":"REMOTE_IFD","IFDName":"Old","IFDID":"\#(pem)","port":24728,"SupportedAPI":["IFDInterface_WebSocket_v0"],"addresses":["wss://10.0.0.5:24728"]}"#
        let announcement = try #require(IFDAnnouncement(datagram: Self.datagram(text), sender: "10.0.0.5"))
        #expect(announcement.ifdID == "2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824")
    }

    @Test(arguments: [
        "", "garbage", "[1,2]", #"{"msg":"OTHER"}"#,
        #"{"msg":"REMOTE_IFD","IFDName":"P","IFDID":"abc","port":1,"SupportedAPI":["x"]}"#,
        #"{"msg":"REMOTE_IFD","IFDName":"P","IFDID":"\#(id)","port":0,"SupportedAPI":["x"]}"#,
        #"{"msg":"REMOTE_IFD","IFDName":"P","IFDID":"\#(id)","port":70000,"SupportedAPI":["x"]}"#,
        #"{"msg":"REMOTE_IFD","IFDName":"P","IFDID":"\#(id)","port":1,"SupportedAPI":[]}"#,
        #"{"msg":"REMOTE_IFD","IFDName":"P","IFDID":"\#(id)","port":1,"SupportedAPI":[1]}"#,
        #"{"msg":"REMOTE_IFD","IFDName":"","IFDID":"\#(id)","port":1,"SupportedAPI":["x"]}"#,
        #"{"msg":"REMOTE_IFD","IFDName":"P","IFDID":"\#(id)","port":1,"SupportedAPI":["x"],"addresses":[]}"#,
        #"{"msg":"REMOTE_IFD","IFDName":"P","IFDID":"\#(id)","port":1,"SupportedAPI":["x"],"addresses":["http://h:1"]}"#,
        #"{"msg":"REMOTE_IFD","IFDName":"P","IFDID":"\#(id)","port":1,"SupportedAPI":["x"],"addresses":["wss://h"]}"#,
        #"{"msg":"REMOTE_IFD","IFDName":"P","IFDID":"\#(id)","port":1,"SupportedAPI":["x"],"pairing":"yes"}"#,
        #"{"msg":"REMOTE_IFD","IFDName":"P","IFDID":"-----BEGIN CERTIFICATE-----\n!!!\n-----END CERTIFICATE-----","port":1,"SupportedAPI":["x"]}"#,
    ])
    func garbageIsIgnored(text: String) {
        #expect(IFDAnnouncement(datagram: Self.datagram(text), sender: "10.0.0.5") == nil)
    }

    @Test func listenerCollectsAnnouncementsAndIgnoresGarbage() throws {
        let port: UInt16 = 46217
        let discovery = try IFDDiscovery(port: port)
        let good =
            #"{"msg":"REMOTE_IFD","IFDName":"Pixel","IFDID":"\#(Self.id)","port":24728,"SupportedAPI":["IFDInterface_WebSocket_v2"],"pairing":true}"#
        // A last phone marks the end of what was sent: the collection stops there, not at a time.
        let last = String(repeating: "FEDCBA9876543210", count: 4)
        let marker =
            #"{"msg":"REMOTE_IFD","IFDName":"Last","IFDID":"\#(last)","port":24729,"SupportedAPI":["IFDInterface_WebSocket_v2"]}"#
        for datagram in ["garbage", good, good, marker] { Self.send(datagram, port: port) }
        let heard = discovery.collect(timeout: 30) { $0.ifdID == last.lowercased() }
        #expect(heard.map(\.name) == ["Pixel", "Last"], "garbage ignored, the repeated phone listed once")
        #expect(heard.first?.addresses == ["wss://127.0.0.1:24728"])
        // Timing is the behaviour: with nothing sent, the wait ends at its timeout.
        let start = ContinuousClock.now
        #expect(discovery.next(timeout: 0.3) == nil)
        let elapsed = ContinuousClock.now - start
        #expect(elapsed >= .milliseconds(300) && elapsed < .seconds(30), "\(elapsed)")
    }

    @Test func portFromTheEnvironment() {
        #expect(IFDDiscovery.port(environment: { _ in nil }) == 24727)
        #expect(IFDDiscovery.port(environment: { _ in "46299" }) == 46299)
        #expect(IFDDiscovery.port(environment: { _ in "nonsense" }) == 24727)
    }

    static func send(_ text: String, port: UInt16) {
        let fd = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bytes = Array(text.utf8)
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                sendto(fd, bytes, bytes.count, 0, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
    }
}
