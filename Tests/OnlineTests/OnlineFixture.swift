import Foundation

/// The XML documents in Fixtures/ (see its README.md), as bytes.
enum OnlineFixture {
    static func bytes(_ name: String) throws -> [UInt8] {
        guard let url = Bundle.module.url(forResource: name, withExtension: "xml", subdirectory: "Fixtures") else {
            throw Missing(name: name)
        }
        return [UInt8](try Data(contentsOf: url))
    }

    struct Missing: Error {
        var name: String
    }
}
