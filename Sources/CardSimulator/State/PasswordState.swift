import EAC
import SmartCard

/// The card's passwords and their counters (BSI TR-03110-2, section 3.5; the nPA's PIN
/// management), kept across card sessions. Every rule about when a password may be used and
/// what a use does to the counters lives here, as plain methods, so that MSE:Set AT, PACE and
/// RESET RETRY COUNTER only ask and record.
///
/// Rules:
/// - PIN: 3 attempts. A wrong PIN decreases the retry counter. At 1 the PIN is suspended: PACE
///   with the PIN is allowed only after a successful PACE with the CAN in the same card session.
///   At 0 it is blocked; only RESET RETRY COUNTER after PACE with the PUK helps. A correct PIN
///   sets the counter back to 3.
/// - Transport PIN: the current PIN is a 5-digit transport PIN (`transportPIN`); PACE with it
///   works like with the PIN; afterwards only a PIN change is useful. Changing the PIN clears
///   the flag.
/// - Deactivated: the eID function is off. MSE:Set AT with the PIN answers 6283; the PIN itself
///   still verifies (the card refuses the eID application later, not the PIN).
/// - CAN: no counter. MRZ: this card has no MRZ password (PACE with it is not available).
/// - PUK: a wrong PUK changes nothing (6300). Each unblock (RESET RETRY COUNTER after PACE with
///   the PUK) uses one of `pukUsesLeft` (10 on a new card). At 0 the PUK is inoperative: PACE
///   with it still succeeds (a wrong one still gets 6300), and the unblock answers 6982, as on a
///   real card (so a terminal learns it only after the right PUK).
public struct PasswordState: Equatable, Sendable, CustomStringConvertible, CustomReflectable {
    /// A full PIN counter: the number MSE:Set AT reads as ready.
    public static let maxPINRetries = MSESetATOutcome.maxPINRetryCounter
    public static let maxPUKUses = 10

    public internal(set) var pin: String
    public internal(set) var can: String
    public internal(set) var puk: String
    /// 0...3: attempts left for the PIN.
    public internal(set) var pinRetryCounter: Int
    /// Whether the current PIN is a 5-digit transport PIN that must be changed first.
    public internal(set) var transportPIN: Bool
    /// Whether the eID function is switched off.
    public internal(set) var deactivated: Bool
    /// How many more times the PUK can unblock the PIN (0...10).
    public internal(set) var pukUsesLeft: Int

    public init(
        pin: String = "123456", can: String = "500540", puk: String = "9876543210",
        pinRetryCounter: Int = PasswordState.maxPINRetries, transportPIN: Bool = false, deactivated: Bool = false,
        pukUsesLeft: Int = PasswordState.maxPUKUses
    ) {
        self.pin = pin
        self.can = can
        self.puk = puk
        self.pinRetryCounter = min(max(pinRetryCounter, 0), PasswordState.maxPINRetries)
        self.transportPIN = transportPIN
        self.deactivated = deactivated
        self.pukUsesLeft = min(max(pukUsesLeft, 0), PasswordState.maxPUKUses)
    }

    /// The answer to MSE:Set AT for PACE with `reference`: for the PIN, deactivated when the
    /// eID function is off, else what its retry counter says (ready at 3, 63C2, suspended at 1,
    /// blocked at 0); ready for every other password.
    public func mseOutcome(for reference: PACEPasswordType) -> MSESetATOutcome {
        guard reference == .pin else { return .ready }
        if deactivated { return .deactivated }
        return MSESetATOutcome(pinRetryCounter: pinRetryCounter)
    }

    /// Why PACE with `reference` may not run now, or nil when it may. `canVerifiedInSession`:
    /// whether PACE with the CAN succeeded earlier in this card session (lifts the suspension).
    public func refusal(of reference: PACEPasswordType, canVerifiedInSession: Bool) -> PasswordOutcome? {
        switch reference {
        case .mrz:
            return .notAvailable
        case .can:
            return nil
        case .pin:
            if pinRetryCounter == 0 { return .blocked }
            if pinRetryCounter == 1 && !canVerifiedInSession { return .suspended }
            return nil
        case .puk:
            return nil  // an inoperative PUK is refused by the unblock, not by PACE
        }
    }

    /// The stored password for `reference` (what the card's side of PACE derives its key
    /// from), or nil when the card has none (MRZ).
    public func secret(for reference: PACEPasswordType) -> String? {
        switch reference {
        case .mrz: return nil
        case .can: return can
        case .pin: return pin
        case .puk: return puk
        }
    }

    /// Records the end of a PACE run with `reference` that `refusal(of:)` allowed: a correct
    /// PIN sets the counter to 3, a wrong one decreases it. Returns the outcome to answer.
    public mutating func recordAttempt(_ reference: PACEPasswordType, succeeded: Bool) -> PasswordOutcome {
        if succeeded {
            if reference == .pin { pinRetryCounter = PasswordState.maxPINRetries }
            return .success
        }
        guard reference == .pin else { return .wrongPassword(retriesLeft: nil) }
        pinRetryCounter = max(pinRetryCounter - 1, 0)
        return .wrongPassword(retriesLeft: pinRetryCounter)
    }

    /// Checks `digits` against the password `reference` the way PACE does (refusal first,
    /// then compare and record). For tests and for a card side that compares directly.
    public mutating func verify(
        password reference: PACEPasswordType, digits: String, canVerifiedInSession: Bool = false
    ) -> PasswordOutcome {
        if let refusal = refusal(of: reference, canVerifiedInSession: canVerifiedInSession) { return refusal }
        guard let stored = secret(for: reference) else { return .notAvailable }
        return recordAttempt(reference, succeeded: PasswordState.equalInConstantTime(stored, digits))
    }

    /// RESET RETRY COUNTER P1=03 (after PACE with the PUK): the PIN's counter back to 3, using
    /// one PUK use; 6982 (inoperative) when none are left.
    public mutating func unblockPIN() -> PasswordOutcome {
        guard pukUsesLeft > 0 else { return .inoperative }
        pukUsesLeft -= 1
        pinRetryCounter = PasswordState.maxPINRetries
        return .success
    }

    /// RESET RETRY COUNTER P1=02 (after PACE with the PIN or transport PIN): sets a new
    /// 6-digit PIN, ends the transport PIN state and sets the counter to 3.
    public mutating func changePIN(to newPIN: String) -> PasswordOutcome {
        guard PasswordFormat.pin.accepts(newPIN) else { return .invalidNewPIN }
        pin = newPIN
        transportPIN = false
        pinRetryCounter = PasswordState.maxPINRetries
        return .success
    }

    static func equalInConstantTime(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8)
        let y = Array(b.utf8)
        var diff = UInt8(x.count == y.count ? 0 : 1)
        for i in 0..<max(x.count, y.count) {
            diff |= (i < x.count ? x[i] : 0) ^ (i < y.count ? y[i] : 0xFF)
        }
        return diff == 0
    }
}

extension PasswordState {
    /// The counters only: the card's PIN, CAN and PUK never reach a log or a test's output.
    public var description: String {
        "PasswordState(pinRetryCounter: \(pinRetryCounter), transportPIN: \(transportPIN), "
            + "deactivated: \(deactivated), pukUsesLeft: \(pukUsesLeft))"
    }

    public var customMirror: Mirror { Mirror(self, children: ["description": description]) }
}
