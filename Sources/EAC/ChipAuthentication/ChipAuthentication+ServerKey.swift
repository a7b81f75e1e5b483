import EIDCrypto
import SmartCard

extension ChipAuthentication {
    /// What the card answers Chip Authentication with: the nonce r_PICC and the token T_PICC.
    public struct CardAnswer: Equatable, Sendable {
        public let nonce: [UInt8]
        public let token: [UInt8]
    }

    /// Chip Authentication with an ephemeral key whose private half only the eID server holds
    /// (online authentication, docs/protocol.md, "Chip Authentication"): MSE:Set AT and GENERAL AUTHENTICATE with
    /// `serverKey`. The client cannot check the token nor derive the new keys; it passes nonce
    /// and token on to the server. Throws `refused` when the card refuses a command,
    /// `malformedResponse` when its answer holds no nonce and token.
    public func runWithServerKey(selection: Selection, serverKey: ECPoint) throws -> CardAnswer {
        try send(.mseSetAT(chipAuthentication: selection.protocol, keyID: selection.keyID), step: .setAT)
        let response = try send(.generalAuthenticate(chipAuthentication: serverKey), step: .generalAuthenticate)
        guard let data = try? DynamicAuthenticationData(bytes: response.data), let nonce = data[0x81],
            let token = data[0x82]
        else { throw ChipAuthenticationError.malformedResponse }
        return CardAnswer(nonce: nonce, token: token)
    }
}
