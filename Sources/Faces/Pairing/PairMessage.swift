import OrderedJSON
import RemoteIFD

/// What `eid pair` tells, as a line for a person and as one JSON object (`--json`). The SDK has no
/// pairing messages: these are eid's own, named IFD_* so that they cannot be taken for SDK ones.
public enum PairMessage: Equatable, Sendable {
    /// A phone heard on the network (IFD_FOUND).
    case found(IFDAnnouncement)
    /// The pairing code is asked for (IFD_ENTER_CODE): one line on standard input when it is not a
    /// terminal.
    case enterCode(phone: String)
    /// Paired and stored (IFD_PAIRED).
    case paired(PairedDevice)
    /// A stored phone (IFD_DEVICE, one per phone for `--list`).
    case device(PairedDevice)
    /// Forgotten (IFD_FORGOTTEN).
    case forgotten(PairedDevice)
    /// Why the command failed (IFD_ERROR).
    case error(String)

    public var json: JSONValue {
        switch self {
        case .found(let phone):
            return .object([
                ("msg", .string("IFD_FOUND")), ("name", .string(phone.name)), ("IFDID", .string(phone.ifdID)),
                ("addresses", .array(phone.addresses.map(JSONValue.string))), ("pairing", .bool(phone.pairing)),
                ("supported", .bool(phone.isSupported)),
            ])
        case .enterCode(let phone):
            return .object([("msg", .string("IFD_ENTER_CODE")), ("name", .string(phone))])
        case .paired(let device): return Self.device("IFD_PAIRED", device)
        case .device(let device): return Self.device("IFD_DEVICE", device)
        case .forgotten(let device): return Self.device("IFD_FORGOTTEN", device)
        case .error(let sentence): return .object([("msg", .string("IFD_ERROR")), ("error", .string(sentence))])
        }
    }

    /// The line for a person; nil for the code request, which is the prompt itself.
    public var line: String? {
        switch self {
        case .found(let phone):
            let state =
                !phone.isSupported
                ? "its AusweisApp is too old" : phone.pairing ? "waiting for pairing" : "card reader mode"
            return "found \(phone.name) at \(phone.addresses.joined(separator: ", ")): \(state)"
        case .enterCode: return nil
        case .paired(let device):
            return "paired with \(device.name) (\(device.address)); it is a card reader for eid now"
        case .device(let device):
            return "\(device.name)  \(device.address)  IFDID \(device.ifdID)"
        case .forgotten(let device):
            return "forgot \(device.name); remove this computer on the phone too (AusweisApp: paired devices)"
        case .error(let sentence): return "eid: \(sentence)"
        }
    }

    static func device(_ msg: String, _ device: PairedDevice) -> JSONValue {
        .object([
            ("msg", .string(msg)), ("name", .string(device.name)), ("IFDID", .string(device.ifdID)),
            ("address", .string(device.address)),
        ])
    }
}
