import EAC
import OrderedJSON
import SmartCard

/// The data groups of the eID application as the server reports them (docs/protocol.md, "eID data groups"): the
/// name the AusweisApp2 SDK gives the right to read each (GivenNames, FamilyName, DateOfBirth,
/// Address, …) and its value as JSON: text as a string, a date YYYYMMDD as `YYYY-MM-DD` (as it
/// is when a digit is unknown), a structured place as an object (street, city, state, country,
/// zipCode), the community ID as hex.
enum EIDAttribute {
    /// The SDK name of data group `number`, or nil when its read right has none.
    static func name(dataGroup number: Int) -> String? {
        AccessRight.allCases.first { $0.dataGroup == number && $0.rawValue < AccessRight.writeDG22.rawValue }?.sdkName
    }

    /// The value in data group content `der` (`[APPLICATION n]` around the group's type), or nil
    /// when it is not that.
    static func value(dataGroup number: Int, der: [UInt8]) -> JSONValue? {
        guard let outer = try? TLV.parseAll(der), outer.count == 1, outer[0].tag == 0x60 + UInt32(number),
            let inner = try? outer[0].children(), inner.count == 1
        else { return nil }
        let object = inner[0]
        switch (number, object.tag) {
        case (3, 0x12), (8, 0x12), (15, 0x12): return .string(date(object.value))
        case (_, 0x13), (_, 0x0C), (_, 0x16): return text(object.value)
        case (18, 0x04): return .string(object.value.hexString)
        case (_, 0xA1), (_, 0xA2):
            // freetextPlace / noPlaceInfo, or Text: uncompressed.
            guard let children = try? object.children(), children.count == 1 else { return nil }
            if children[0].tag == 0x0C { return text(children[0].value) }
            return .string(children[0].value.hexString)
        case (_, 0x30): return place(object)
        default: return .string(der.hexString)
        }
    }

    private static func text(_ bytes: [UInt8]) -> JSONValue? {
        String(validating: bytes, as: UTF8.self).map { .string($0) }
    }

    private static func date(_ digits: [UInt8]) -> String {
        let text = String(decoding: digits, as: UTF8.self)
        guard digits.count == 8, digits.allSatisfy({ (0x30...0x39).contains($0) }) else { return text }
        let d = Array(text)
        return String(d[0..<4]) + "-" + String(d[4..<6]) + "-" + String(d[6..<8])
    }

    private static func place(_ sequence: TLV) -> JSONValue? {
        guard let fields = try? sequence.children() else { return nil }
        let names: [UInt32: String] = [0xAA: "street", 0xAB: "city", 0xAC: "state", 0xAD: "country", 0xAE: "zipCode"]
        var members: [(String, JSONValue)] = []
        for field in fields {
            guard let name = names[field.tag], let inner = try? field.children(), inner.count == 1,
                let value = text(inner[0].value)
            else { return nil }
            members.append((name, value))
        }
        return .object(members)
    }
}
