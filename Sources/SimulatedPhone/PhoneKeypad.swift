import EAC
import SmartCard

/// What the phone's user types on the phone in PIN-pad mode (for the simulator: given at start, never
/// logged): the secret for each PACE password the client asks for, and the new PIN of IFDModifyPIN. A
/// missing one is a user who cancels.
public final class PhoneKeypad: @unchecked Sendable {
    // @unchecked: immutable after init; Secret wipes its storage when released.
    private let secrets: [PACEPasswordType: Secret]
    private let newPIN: Secret?

    public init(pin: Secret?, can: Secret?, puk: Secret?, newPIN: Secret?) {
        var secrets: [PACEPasswordType: Secret] = [:]
        secrets[.pin] = pin
        secrets[.can] = can
        secrets[.puk] = puk
        self.secrets = secrets
        self.newPIN = newPIN
    }

    /// The password the user types when the phone asks for `type`, nil when the user cancels.
    func password(_ type: PACEPasswordType) -> PACEPassword? {
        secrets[type].map { PACEPassword(type: type, secret: $0) }
    }

    /// The new PIN as ASCII digits (the caller zeroes it), nil when the user cancels.
    func typedNewPIN() -> [UInt8]? { newPIN?.copyBytes() }
}
