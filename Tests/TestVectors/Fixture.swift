import Foundation
import SmartCard

/// The published test vectors (ICAO, BSI, NIST, RFC), copied unchanged into Fixtures/ with
/// their `source` field; shared by the crypto and EAC test targets.
public enum Fixture {
    public static func data(_ name: String) throws -> Data {
        guard let url = Bundle.module.url(forResource: name, withExtension: "json", subdirectory: "Fixtures") else {
            throw FixtureError.missing(name)
        }
        return try Data(contentsOf: url)
    }

    public static func decode<T: Decodable>(_ type: T.Type, from name: String) throws -> T {
        try JSONDecoder().decode(T.self, from: data(name))
    }

    /// The `values` object of a vector file as a dictionary of hex strings (non-strings dropped).
    /// `path` descends into nested objects of `values`.
    public static func hexValues(_ name: String, key path: String...) throws -> [String: String] {
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

public enum FixtureError: Error {
    case missing(String)
    case badHex(String)
}

public func hex(_ s: String) throws -> [UInt8] {
    guard let b = [UInt8](hex: s) else { throw FixtureError.badHex(s) }
    return b
}

extension Dictionary where Key == String, Value == String {
    public func bytes(_ key: String) throws -> [UInt8] {
        guard let s = self[key] else { throw FixtureError.missing(key) }
        return try hex(s)
    }
}

extension Fixture {
    /// The `values` object of a vector file.
    public static func values(_ name: String) throws -> [String: Any] {
        guard let root = try JSONSerialization.jsonObject(with: data(name)) as? [String: Any],
            let values = root["values"] as? [String: Any]
        else { throw FixtureError.missing(name) }
        return values
    }
}
