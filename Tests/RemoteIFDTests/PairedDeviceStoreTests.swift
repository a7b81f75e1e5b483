import Testing

@testable import RemoteIFD

#if canImport(Glibc)
import Glibc
#endif

@Suite struct PairedDeviceStoreTests {
    /// A fresh directory under /tmp, removed by the caller's `defer`.
    static func temporaryDirectory() -> String {
        var template = Array("/tmp/eid-ifd-store-XXXXXX".utf8CString)
        let path = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)) }
        return path
    }

    static func remove(_ path: String) {
        if let dir = opendir(path) {
            while let entry = readdir(dir) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) {
                    String(cString: $0.bindMemory(to: CChar.self).baseAddress!)
                }
                if name != "." && name != ".." { remove(path + "/" + name) }
            }
            closedir(dir)
            rmdir(path)
        } else {
            unlink(path)
        }
    }

    static func mode(_ path: String) -> mode_t {
        var status = stat()
        stat(path, &status)
        return status.st_mode & 0o777
    }

    static func write(_ text: String, to path: String) {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        _ = text.utf8CString.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count - 1) }
        close(fd)
    }

    @Test func savedPhonesComeBackWithPrivateModes() throws {
        let root = Self.temporaryDirectory()
        defer { Self.remove(root) }
        let store = PairedDeviceStore(directory: root + "/config/eid/ifd")
        #expect(!store.hasDevices)
        let phone = try PairedDevice(name: "Pixel", certificate: [1, 2, 3], address: "wss://192.0.2.7:24728")
        let other = try PairedDevice(name: "Fairphone", certificate: [4, 5], address: "wss://192.0.2.8:24728")
        umask(0o022)
        try store.save(phone)
        try store.save(other)
        #expect(store.hasDevices)
        #expect(store.load().devices == [other, phone])
        #expect(store.load().unreadable.isEmpty)
        #expect(Self.mode(store.directory) == 0o700)
        #expect(Self.mode(root + "/config/eid") == 0o700)
        #expect(Self.mode(store.directory + "/phone-\(phone.ifdID).json") == 0o600)
    }

    @Test func pairingAgainReplacesAndForgetRemoves() throws {
        let root = Self.temporaryDirectory()
        defer { Self.remove(root) }
        let store = PairedDeviceStore(directory: root + "/ifd")
        var phone = try PairedDevice(name: "Pixel", certificate: [1, 2, 3], address: "wss://192.0.2.7:24728")
        try store.save(phone)
        phone.address = "wss://192.0.2.9:24728"
        try store.save(phone)
        #expect(store.load().devices == [phone])
        #expect(throws: PairedDeviceStoreError.notPaired("Nokia")) { try store.forget("Nokia") }
        #expect(try store.forget("Pixel") == phone)
        #expect(store.load().devices.isEmpty)
        #expect(!store.hasDevices)
    }

    @Test func corruptFilesAreReportedNotFatal() throws {
        let root = Self.temporaryDirectory()
        defer { Self.remove(root) }
        let store = PairedDeviceStore(directory: root)
        let phone = try PairedDevice(name: "Pixel", certificate: [1, 2, 3], address: "wss://192.0.2.7:24728")
        try store.save(phone)
        Self.write("{not json", to: root + "/phone-broken.json")
        Self.write(
            #"{"name":"Evil","IFDID":"\#(String(repeating: "ab", count: 32))","certificate":"010203","address":"wss://h:1"}"#,
            to: root + "/phone-mismatch.json")
        Self.write("ignored", to: root + "/identity.pem")
        let loaded = store.load()
        #expect(loaded.devices == [phone])
        #expect(loaded.unreadable.count == 2)
        #expect(loaded.unreadable.allSatisfy { $0.description.contains("eid pair") })
    }

    @Test func deviceJSONRoundTrip() throws {
        let phone = try PairedDevice(name: "Pixel \"7\"", certificate: [0xDE, 0xAD], address: "wss://[fe80::1]:24728")
        #expect(try PairedDevice(json: Array(phone.json.text.utf8)) == phone)
        #expect(phone.ifdID.count == 64)
        #expect(phone.certificateSHA256.count == 32)
    }

    @Test func userDirectory() throws {
        #expect(
            try PairedDeviceStore.user(environment: { ["XDG_CONFIG_HOME": "/x/cfg", "HOME": "/home/u"][$0] }).directory
                == "/x/cfg/eid/ifd")
        #expect(
            try PairedDeviceStore.user(environment: { ["HOME": "/home/u"][$0] }).directory == "/home/u/.config/eid/ifd")
        // A relative XDG_CONFIG_HOME is ignored, as the XDG base directory specification says.
        #expect(
            try PairedDeviceStore.user(environment: { ["XDG_CONFIG_HOME": "cfg", "HOME": "/home/u"][$0] }).directory
                == "/home/u/.config/eid/ifd")
        #expect(throws: PairedDeviceStoreError.noConfigDirectory) {
            try PairedDeviceStore.user(environment: { _ in nil })
        }
    }
}
