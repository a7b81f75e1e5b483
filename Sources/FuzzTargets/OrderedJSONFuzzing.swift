import OrderedJSON

/// JSON text: what parses is written compactly and must parse again to the same value.
enum OrderedJSONFuzzing {
    static func run(_ data: [UInt8]) {
        guard let value = try? JSONValue(parsing: data) else { return }
        let text = value.text
        guard let again = try? JSONValue(parsing: Array(text.utf8)) else {
            preconditionFailure("compact JSON text does not parse again: \(text)")
        }
        precondition(again.text == text, "compact JSON text changes on a second round: \(text)")
    }
}
