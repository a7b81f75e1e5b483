import EAC

/// Command-line options laid over a profile (`eid-sim --profile FILE --pin …`).
extension CardProfile {
    /// Field values given as options; nil: not given, the profile's value stays.
    public struct Overrides: Equatable, Sendable {
        public var pin: String?
        public var can: String?
        public var puk: String?
        public var pinRetries: Int?
        public var pukUsesLeft: Int?
        public var transportPIN: Bool?
        public var deactivated: Bool?
        public var cardAccess: [UInt8]?
        public var trustAnchors: [CVCertificate]?
        public var date: CalendarDate?

        public init(
            pin: String? = nil, can: String? = nil, puk: String? = nil, pinRetries: Int? = nil,
            pukUsesLeft: Int? = nil, transportPIN: Bool? = nil, deactivated: Bool? = nil, cardAccess: [UInt8]? = nil,
            trustAnchors: [CVCertificate]? = nil, date: CalendarDate? = nil
        ) {
            self.pin = pin
            self.can = can
            self.puk = puk
            self.pinRetries = pinRetries
            self.pukUsesLeft = pukUsesLeft
            self.transportPIN = transportPIN
            self.deactivated = deactivated
            self.cardAccess = cardAccess
            self.trustAnchors = trustAnchors
            self.date = date
        }
    }

    /// The profile with `overrides` applied (not validated). `transportPIN: true` without a
    /// PIN makes the PIN 12345, unless the profile already is a transport PIN card (then its
    /// PIN stays).
    public func applying(_ overrides: Overrides) -> CardProfile {
        var result = self
        if let transportPIN = overrides.transportPIN {
            if transportPIN && !result.transportPIN { result.pin = nil }
            result.transportPIN = transportPIN
        }
        if let pin = overrides.pin { result.pin = pin }
        if let can = overrides.can { result.can = can }
        if let puk = overrides.puk { result.puk = puk }
        if let pinRetries = overrides.pinRetries { result.pinRetries = pinRetries }
        if let pukUsesLeft = overrides.pukUsesLeft { result.pukUsesLeft = pukUsesLeft }
        if let deactivated = overrides.deactivated { result.deactivated = deactivated }
        if let cardAccess = overrides.cardAccess { result.cardAccess = cardAccess }
        if let trustAnchors = overrides.trustAnchors { result.trustAnchors = trustAnchors }
        if let date = overrides.date { result.date = date }
        return result
    }
}
