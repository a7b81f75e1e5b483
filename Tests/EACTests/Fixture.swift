import CardAccess
import Foundation

/// Test vectors copied unchanged from the shared vector set (each keeps its `source` field).
enum Fixture {
    static func data(_ name: String) throws -> Data {
        guard let url = Bundle.module.url(forResource: name, withExtension: "json", subdirectory: "Fixtures") else {
            throw FixtureError.missing(name)
        }
        return try Data(contentsOf: url)
    }

    static func decode<T: Decodable>(_ type: T.Type, from name: String) throws -> T {
        try JSONDecoder().decode(T.self, from: data(name))
    }

    /// The `values` object of a vector file as a dictionary of hex strings (non-strings dropped).
    /// `path` descends into nested objects of `values`.
    static func hexValues(_ name: String, key path: String...) throws -> [String: String] {
        guard let root = try JSONSerialization.jsonObject(with: data(name)) as? [String: Any],
            var values = root["values"] as? [String: Any]
        else { throw FixtureError.missing(name) }
        for key in path {
            guard let inner = values[key] as? [String: Any] else { throw FixtureError.missing("\(name).\(key)") }
            values = inner
        }
        return values.compactMapValues { $0 as? String }
    }
}

enum FixtureError: Error {
    case missing(String)
    case badHex(String)
}

func hex(_ s: String) throws -> [UInt8] {
    guard let b = [UInt8](hex: s) else { throw FixtureError.badHex(s) }
    return b
}

extension Dictionary where Key == String, Value == String {
    func bytes(_ key: String) throws -> [UInt8] {
        guard let s = self[key] else { throw FixtureError.missing(key) }
        return try hex(s)
    }
}

extension Fixture {
    /// The `values` object of a vector file.
    static func values(_ name: String) throws -> [String: Any] {
        guard let root = try JSONSerialization.jsonObject(with: data(name)) as? [String: Any],
            let values = root["values"] as? [String: Any]
        else { throw FixtureError.missing(name) }
        return values
    }
}
