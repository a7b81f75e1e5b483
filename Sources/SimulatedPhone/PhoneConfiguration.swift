/// How `eid-sim --ifd` runs the phone: where it listens and announces, its name, pairing, faults.
public struct PhoneConfiguration: Sendable {
    /// The phone's name (IFDName in announcements and IFDEstablishContextResponse; the slot is named after it).
    public var name = "eid-sim phone"
    public var listenHost = "127.0.0.1"
    /// 0: a free port, announced.
    public var listenPort = 0
    /// Where announcements go: nil for the default (127.0.0.1 when listening on loopback, else broadcast).
    public var announceHost: String?
    public var announcePort = 24727
    /// Seconds between announcements.
    public var announceInterval = 1.0
    /// Announce the certificate's PEM as IFDID (older AusweisApp versions) instead of its SHA-256.
    public var announcePEMIdentifier = false
    /// The pairing code the phone shows (its ASCII bytes are the PSK); nil: not pairing.
    public var pairingCode: String?
    public var faults = PhoneFaults()

    public init() {}

    /// The slot name the phone reports (AusweisApp reports its NFC reader by the device's name).
    public var slotName: String { name }

    var isLoopback: Bool { listenHost == "127.0.0.1" || listenHost == "::1" || listenHost == "localhost" }

    /// Where announcements go.
    var announceTarget: (host: String, port: Int) {
        (announceHost ?? (isLoopback ? "127.0.0.1" : "255.255.255.255"), announcePort)
    }

    /// The addresses announced: the listening address, none when the phone listens on every interface.
    func announcedAddresses(port: Int) -> [String] {
        guard listenHost != "0.0.0.0", listenHost != "::" else { return [] }
        let host = listenHost.contains(":") ? "[\(listenHost)]" : listenHost
        return ["wss://\(host):\(port)"]
    }
}
