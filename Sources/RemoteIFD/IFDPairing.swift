import SmartCard

/// Pairing with a phone that shows a pairing code: a TLS connection with the code as PSK (in
/// which each side presents its certificate), IFDEstablishContext on it, then close. The phone's
/// certificate from that handshake is what eid pins from then on.
public struct IFDPairing: Sendable {
    let opener: any IFDChannelOpener
    let udName: String
    let timeouts: IFDTimeouts

    public init(opener: any IFDChannelOpener, udName: String, timeouts: IFDTimeouts = IFDTimeouts()) {
        self.opener = opener
        self.udName = udName
        self.timeouts = timeouts
    }

    /// Pairs with the phone at `address`; `name` is the name it announced (the name in its
    /// IFDEstablishContextResponse when nil). Nothing is stored here.
    public func pair(address: String, name: String?, code: Secret) throws -> PairedDevice {
        let opened: (channel: any IFDMessageChannel, peerCertificate: [UInt8])
        do {
            opened = try opener.openPairing(address: address, code: code, timeout: timeouts.open)
        } catch let error as RemoteIFDError {
            throw error
        } catch {
            throw RemoteIFDError.pairingRefused(address: address, String(describing: error))
        }
        let session = try IFDSession.establish(
            channel: opened.channel, phoneName: name ?? address, udName: udName, timeouts: timeouts)
        session.close()
        guard !opened.peerCertificate.isEmpty else {
            throw RemoteIFDError.pairingRefused(address: address, "the phone presented no certificate")
        }
        return try PairedDevice(name: name ?? session.ifdName, certificate: opened.peerCertificate, address: address)
    }
}
