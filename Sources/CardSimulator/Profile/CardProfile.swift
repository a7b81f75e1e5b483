import EAC
import FoundationEssentials
import OrderedJSON
import SmartCard

/// The simulated card's settings: the same fields as `eid-sim`'s options, read from a JSON
/// file (`--profile`) and overridden by options. Every field is optional in the file; the
/// defaults make the AusweisApp/PersoSim test card:
///
/// ```json
/// { "pin": "123456", "can": "500540", "puk": "9876543210", "pinRetries": 3,
///   "transportPIN": false, "deactivated": false, "pukUsesLeft": 10,
///   "cardAccess": "3181...", "cvca": ["7f21..."], "date": "2026-11-23", "chipAuthenticationKey": "a1b2...",
///   "dataGroups": { "DG4": "ERIKA", "DG17": {"street": "HEIDESTRAẞE 17", "city": "KÖLN",
///                   "country": "D", "zipCode": "51147"}, "DG12": {"der": "6c..."}, "DG21": null } }
/// ```
///
/// `pin` absent means 123456, or 12345 with `transportPIN`. `cardAccess` (hex) replaces
/// EF.CardAccess, e.g. to make a card that answers garbage or truncated TLV. Passwords are
/// strings of digits (PIN 6, transport PIN 5, CAN 6, PUK 10); unknown fields are errors.
/// `cvca`: the CV certificates (hex) Terminal Authentication trusts, the current first
/// (default: the project's test CVCA). `date`: the card's current date (default: today).
/// `chipAuthenticationKey`: the private scalar (hex, 32 bytes) of the card's static Chip
/// Authentication key on brainpoolP256r1 (default: the TEST ONLY key of `DocumentTestPKI`);
/// EF.CardSecurity then carries its public key, signed by the test document signer.
/// `dataGroups`: the eID application's DG1-DG21 over the ERIKA MUSTERMANN sample
/// (`EIDSampleData`): a string is the value in the group's type (`EIDDataGroup.encode`), an
/// object with `der` the whole data group as DER, a place object (DG9, DG17) a structured
/// place, null removes the data group.
public struct CardProfile: Equatable, Sendable {
    public static let defaultPIN = "123456"
    public static let defaultTransportPIN = "12345"

    /// nil: the default for the transport state (`effectivePIN`).
    public var pin: String?
    public var can: String
    public var puk: String
    public var pinRetries: Int
    public var transportPIN: Bool
    public var deactivated: Bool
    public var pukUsesLeft: Int
    /// Replaces the content of EF.CardAccess when set.
    public var cardAccess: [UInt8]?
    /// The trust anchors of Terminal Authentication; nil: the project's test CVCA.
    public var trustAnchors: [CVCertificate]?
    /// The card's current date; nil: today, when the card is made.
    public var date: CalendarDate?
    /// The private scalar of the static Chip Authentication key (brainpoolP256r1); nil: the
    /// TEST ONLY key of `DocumentTestPKI`.
    public var chipAuthenticationKey: [UInt8]?
    /// The eID application's data groups: number (1...21) → content (DER).
    public var dataGroups: [Int: [UInt8]] = EIDSampleData.dataGroups

    public init(
        pin: String? = nil, can: String = "500540", puk: String = "9876543210", pinRetries: Int = 3,
        transportPIN: Bool = false, deactivated: Bool = false, pukUsesLeft: Int = PasswordState.maxPUKUses,
        cardAccess: [UInt8]? = nil
    ) {
        self.pin = pin
        self.can = can
        self.puk = puk
        self.pinRetries = pinRetries
        self.transportPIN = transportPIN
        self.deactivated = deactivated
        self.pukUsesLeft = pukUsesLeft
        self.cardAccess = cardAccess
    }

    /// The PIN the card gets: `pin`, or 12345 / 123456 by `transportPIN`.
    public var effectivePIN: String { pin ?? (transportPIN ? CardProfile.defaultTransportPIN : CardProfile.defaultPIN) }

    /// The JSON field names, in the order they are documented and encoded.
    public static let fieldNames = [
        "pin", "can", "puk", "pinRetries", "transportPIN", "deactivated", "pukUsesLeft", "cardAccess", "cvca", "date",
        "chipAuthenticationKey", "dataGroups",
    ]

    /// Checks every value; `source` names where they came from (a file path, or "options").
    /// Errors never contain a password.
    public func validate(source: String) throws {
        func invalid(_ field: String, _ requirement: String, found: String? = nil) -> CardProfileError {
            .invalidValue(source: source, field: field, requirement: requirement, found: found)
        }
        let pinFormat: PasswordFormat = transportPIN ? .transportPIN : .pin
        guard pinFormat.accepts(effectivePIN) else {
            let requirement = "must be \(pinFormat.digitCount) digits"
            throw invalid("pin", transportPIN ? requirement + " (a transport PIN)" : requirement)
        }
        guard PasswordFormat.can.accepts(can) else {
            throw invalid("can", "must be \(PasswordFormat.can.digitCount) digits")
        }
        guard PasswordFormat.puk.accepts(puk) else {
            throw invalid("puk", "must be \(PasswordFormat.puk.digitCount) digits")
        }
        guard (0...PasswordState.maxPINRetries).contains(pinRetries) else {
            throw invalid("pinRetries", "must be 0...3", found: String(pinRetries))
        }
        guard (0...PasswordState.maxPUKUses).contains(pukUsesLeft) else {
            throw invalid("pukUsesLeft", "must be 0...10", found: String(pukUsesLeft))
        }
    }

    /// Reads and validates a profile file.
    public static func load(path: String) throws -> CardProfile {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw CardProfileError.unreadable(source: path, reason: readFailure(error))
        }
        return try decode(data, source: path)
    }

    /// Parses and validates profile JSON; `source` names the file in errors.
    public static func decode(_ data: Data, source: String) throws -> CardProfile {
        let members: [(String, JSONValue)]
        do {
            guard case .object(let object) = try JSONValue(parsing: [UInt8](data)) else {
                throw CardProfileError.notAnObject(source: source)
            }
            members = object
        } catch let error as CardProfileError {
            throw error
        } catch {
            throw CardProfileError.notJSON(source: source)
        }
        if let unknown = members.map(\.0).sorted().first(where: { !fieldNames.contains($0) }) {
            throw CardProfileError.unknownField(source: source, field: unknown)
        }
        // Only known names are left, and the parser refuses a name twice: nothing is dropped.
        let fields = Dictionary(members, uniquingKeysWith: { first, _ in first })
        func string(_ name: String) throws -> String? {
            switch fields[name] {
            case nil: return nil
            case .string(let s): return s
            default: throw CardProfileError.wrongType(source: source, field: name, expected: "a string of digits")
            }
        }
        func integer(_ name: String) throws -> Int? {
            switch fields[name] {
            case nil: return nil
            case .integer(let n): return n
            // 3.0 and 3e0 are the integer 3, as they have always been here.
            case .number(let d): if let n = Int(exactly: d) { return n }
            default: break
            }
            throw CardProfileError.wrongType(source: source, field: name, expected: "an integer")
        }
        func bool(_ name: String) throws -> Bool? {
            switch fields[name] {
            case nil: return nil
            case .bool(let b): return b
            default: throw CardProfileError.wrongType(source: source, field: name, expected: "true or false")
            }
        }
        var profile = CardProfile()
        profile.pin = try string("pin")
        profile.can = try string("can") ?? profile.can
        profile.puk = try string("puk") ?? profile.puk
        profile.pinRetries = try integer("pinRetries") ?? profile.pinRetries
        profile.transportPIN = try bool("transportPIN") ?? profile.transportPIN
        profile.deactivated = try bool("deactivated") ?? profile.deactivated
        profile.pukUsesLeft = try integer("pukUsesLeft") ?? profile.pukUsesLeft
        if let hex = try string("cardAccess") {
            guard let bytes = [UInt8](hex: hex) else {
                throw CardProfileError.invalidValue(
                    source: source, field: "cardAccess", requirement: "must be hexadecimal (an even number of 0-9a-f)",
                    found: nil)
            }
            profile.cardAccess = bytes
        }
        switch fields["cvca"] {
        case nil: break
        case .array(let items):
            profile.trustAnchors = try items.map { item in
                guard case .string(let hex) = item, let bytes = [UInt8](hex: hex),
                    let certificate = try? CVCertificate(encoded: bytes)
                else {
                    throw CardProfileError.invalidValue(
                        source: source, field: "cvca", requirement: "must hold CV certificates (7F21) in hex",
                        found: nil)
                }
                return certificate
            }
        default:
            throw CardProfileError.wrongType(source: source, field: "cvca", expected: "an array of hex strings")
        }
        if let text = try string("date") {
            guard let date = CalendarDate(iso8601: text) else {
                throw CardProfileError.invalidValue(
                    source: source, field: "date", requirement: "must be a date YYYY-MM-DD", found: text)
            }
            profile.date = date
        }
        if let hex = try string("chipAuthenticationKey") {
            guard let scalar = [UInt8](hex: hex), scalar.count == 32,
                (try? CardProfile.chipAuthenticationKeyPair(scalar)) != nil
            else {
                throw CardProfileError.invalidValue(
                    source: source, field: "chipAuthenticationKey",
                    requirement:
                        "must be a brainpoolP256r1 private key: 32 bytes in hex, between 1 and the group order",
                    found: nil)
            }
            profile.chipAuthenticationKey = scalar
        }
        switch fields["dataGroups"] {
        case nil: break
        case .object(let groups):
            for (name, value) in groups {
                try profile.setDataGroup(name, value, source: source)
            }
        default:
            throw CardProfileError.wrongType(
                source: source, field: "dataGroups", expected: "an object such as {\"DG4\": \"ERIKA\"}")
        }
        try profile.validate(source: source)
        return profile
    }

    private static func readFailure(_ error: Error) -> String {
        switch (error as? CocoaError)?.code {
        case .fileReadNoSuchFile?: return "no such file"
        case .fileReadNoPermission?: return "permission denied"
        default: return "the file cannot be read"
        }
    }

    /// The profile as a JSON object: every field, `pin` resolved, in the order of `fieldNames`
    /// (`cardAccess` only when set).
    public var json: JSONValue {
        var members: [(String, JSONValue)] = [
            ("pin", .string(effectivePIN)), ("can", .string(can)), ("puk", .string(puk)),
            ("pinRetries", .integer(pinRetries)), ("transportPIN", .bool(transportPIN)),
            ("deactivated", .bool(deactivated)), ("pukUsesLeft", .integer(pukUsesLeft)),
        ]
        if let cardAccess { members.append(("cardAccess", .string(cardAccess.hexString))) }
        if let trustAnchors {
            members.append(("cvca", .array(trustAnchors.map { .string((try? $0.encoded.hexString) ?? "") })))
        }
        if let date { members.append(("date", .string(date.iso8601))) }
        if let chipAuthenticationKey {
            members.append(("chipAuthenticationKey", .string(chipAuthenticationKey.hexString)))
        }
        // Only what differs from the sample: the DER of a changed group, null for a removed one.
        let changed = EIDDataGroup.numbers.compactMap { number -> (String, JSONValue)? in
            let content = dataGroups[number]
            guard content != EIDSampleData.dataGroups[number] else { return nil }
            return ("DG\(number)", content.map { .object([("der", .string($0.hexString))]) } ?? .null)
        }
        if !changed.isEmpty { members.append(("dataGroups", .object(changed))) }
        return .object(members)
    }

    /// The profile as JSON text (`json`), which `decode` reads back.
    public func jsonData() -> Data { Data(json.text.utf8) }
}

extension PasswordState {
    /// The state of a new card made from `profile`.
    public init(profile: CardProfile) {
        self.init(
            pin: profile.effectivePIN, can: profile.can, puk: profile.puk, pinRetryCounter: profile.pinRetries,
            transportPIN: profile.transportPIN, deactivated: profile.deactivated, pukUsesLeft: profile.pukUsesLeft)
    }
}
