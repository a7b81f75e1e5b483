import RemoteIFD
import SmartCard

/// The paired phones (eid pair) as a reader provider. Without a paired phone nothing of the remote
/// reader is touched: one look at the directory, no file read, no TLS library loaded.
enum PairedPhones {
    /// Seconds a look for a phone that moved to another address listens for its announcement.
    static let locateTime = 1.5

    static func provider() -> RemoteIFDReaderProvider? {
        guard let store = try? PairedDeviceStore.user(), store.hasDevices else { return nil }
        let devices = store.load().devices
        guard !devices.isEmpty else { return nil }
        return RemoteIFDReaderProvider(
            devices: devices, opener: IFDWebSocketOpener(directory: store.directory),
            udName: IFDWebSocketOpener.localName(), locate: locate, moved: { try? store.save($0) },
            refused: { _, error in StandardStream.error.write("eid: \(error)\n") })
    }

    /// The address a paired phone announces now, if it is heard within `locateTime`.
    @Sendable static func locate(_ device: PairedDevice) -> String? {
        guard let discovery = try? IFDDiscovery() else { return nil }
        let heard = discovery.collect(timeout: locateTime) { $0.ifdID == device.ifdID }
        return heard.first { $0.ifdID == device.ifdID }?.addresses.first
    }
}
