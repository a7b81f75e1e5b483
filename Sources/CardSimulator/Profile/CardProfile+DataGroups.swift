import OrderedJSON

extension CardProfile {
    /// Sets data group `name` ("DG1" … "DG21") from its profile JSON: a string (the value in
    /// the group's type), `{"der": hex}`, a place object (DG9, DG17: street, city, state,
    /// country, zipCode), or null (the card has no such data group).
    mutating func setDataGroup(_ name: String, _ value: JSONValue, source: String) throws {
        let field = "dataGroups." + name
        guard name.hasPrefix("DG"), let number = Int(name.dropFirst(2)), EIDDataGroup.numbers.contains(number),
            "DG\(number)" == name
        else {
            throw CardProfileError.invalidValue(
                source: source, field: field, requirement: "must be named DG1 ... DG21", found: nil)
        }
        do {
            switch value {
            case .null:
                dataGroups[number] = nil
            case .string(let text):
                dataGroups[number] = try EIDDataGroup.encode(number, text: text)
            case .object(let members):
                let fields = Dictionary(members, uniquingKeysWith: { first, _ in first })
                func text(_ key: String) throws -> String? {
                    switch fields[key] {
                    case nil: return nil
                    case .string(let s): return s
                    default: throw EIDDataGroup.ValueError.invalid(requirement: "\(key) must be a string")
                    }
                }
                if let hex = try text("der") {
                    guard members.count == 1, let der = [UInt8](hex: hex) else {
                        throw EIDDataGroup.ValueError.invalid(requirement: "der must be hexadecimal and alone")
                    }
                    try EIDDataGroup.validate(number, der: der)
                    dataGroups[number] = der
                } else {
                    let known: Set = ["street", "city", "state", "country", "zipCode"]
                    guard members.allSatisfy({ known.contains($0.0) }), let city = try text("city"),
                        let country = try text("country")
                    else {
                        throw EIDDataGroup.ValueError.invalid(
                            requirement: "must be {\"der\": hex} or a place with city, country and optional "
                                + "street, state, zipCode")
                    }
                    dataGroups[number] = try EIDDataGroup.place(
                        number, street: try text("street"), city: city, state: try text("state"), country: country,
                        zipCode: try text("zipCode"))
                }
            default:
                throw EIDDataGroup.ValueError.invalid(requirement: "must be a string, an object or null")
            }
        } catch EIDDataGroup.ValueError.invalid(let requirement) {
            throw CardProfileError.invalidValue(source: source, field: field, requirement: requirement, found: nil)
        }
    }
}
