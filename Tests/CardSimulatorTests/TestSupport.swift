import SmartCard

@testable import CardSimulator

/// Sends hex to a powered card and returns the response as hex (data + status word).
func exchange(_ card: SimulatedEIDCard, _ hex: String) -> String {
    card.respond(to: [UInt8](hex: hex)!).hexString
}

/// The status word of the response to `hex`, as a number.
func status(_ card: SimulatedEIDCard, _ hex: String) -> UInt16 {
    let r = card.respond(to: [UInt8](hex: hex)!)
    return UInt16(r[r.count - 2]) << 8 | UInt16(r[r.count - 1])
}

func poweredCard(_ profile: CardProfile = CardProfile()) -> SimulatedEIDCard {
    let card = SimulatedEIDCard(profile: profile)
    card.powerOn()
    return card
}

/// MSE:Set AT for PACE with id-PACE-ECDH-GM-AES-CBC-CMAC-128 and password `ref`.
func mseSetATPACE(ref: UInt8) -> String {
    "0022c1a40f800a04007f00070202040202" + "8301" + [ref].hexString
}
