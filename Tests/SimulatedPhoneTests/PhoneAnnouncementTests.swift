import Foundation
import OrderedJSON
import Testing

@testable import SimulatedPhone

/// The announcement's text and where it goes, from the configuration.
@Suite struct PhoneAnnouncementTests {
    @Test func theAnnouncementHasTheFieldsInAusweisAppsOrder() {
        let announcement = PhoneAnnouncement(
            ifdName: "Phone", ifdID: "ab", port: 24728, addresses: ["wss://127.0.0.1:24728"], pairing: false)
        #expect(
            announcement.json.text
                == #"{"msg":"REMOTE_IFD","IFDName":"Phone","IFDID":"ab","port":24728,"#
                + #""SupportedAPI":["IFDInterface_WebSocket_v2"],"addresses":["wss://127.0.0.1:24728"],"pairing":false}"#
        )
        let bare = PhoneAnnouncement(ifdName: "Phone", ifdID: "ab", port: 1, addresses: [], pairing: true)
        #expect(bare.json["addresses"] == nil)
        #expect(bare.json["pairing"] == .bool(true))
    }

    @Test func loopbackAnnouncesToLoopbackEveryInterfaceBroadcastsWithoutAddresses() {
        var configuration = PhoneConfiguration()
        #expect(configuration.announceTarget.host == "127.0.0.1")
        #expect(configuration.announceTarget.port == 24727)
        #expect(configuration.announcedAddresses(port: 5) == ["wss://127.0.0.1:5"])
        configuration.listenHost = "0.0.0.0"
        #expect(configuration.announceTarget.host == "255.255.255.255")
        #expect(configuration.announcedAddresses(port: 5).isEmpty)
        configuration.listenHost = "::1"
        #expect(configuration.announcedAddresses(port: 5) == ["wss://[::1]:5"])
        configuration.announceHost = "192.0.2.7"
        configuration.announcePort = 4000
        #expect(configuration.announceTarget.host == "192.0.2.7" && configuration.announceTarget.port == 4000)
    }

    @Test func theOldIdentifierIsTheCertificatesPEM() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("phone-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let identity = try PhoneIdentity.loadOrCreate(directory: directory)
        #expect(identity.ifdIDPEM.hasPrefix("-----BEGIN CERTIFICATE-----"))
        #expect(identity.ifdID.count == 64 && identity.ifdID.allSatisfy { "0123456789abcdef".contains($0) })
    }
}
