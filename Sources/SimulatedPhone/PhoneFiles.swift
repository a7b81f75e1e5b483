import FoundationEssentials

/// The phone's files: directories 0700, files 0600 (its private key, the paired clients' certificates).
enum PhoneFiles {
    /// Makes `path` (and its parents) with mode 0700 unless it exists; the reason when it cannot.
    static func makeDirectory(_ path: String) -> String? {
        do {
            try FileManager.default.createDirectory(
                atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            return nil
        } catch {
            return "cannot create it"
        }
    }

    /// The bytes of `path`, nil when it cannot be read.
    static func read(_ path: String) -> [UInt8]? {
        FileManager.default.contents(atPath: path).map { [UInt8]($0) }
    }

    /// Writes `bytes` to `path` with mode 0600; false when it cannot.
    static func write(_ bytes: [UInt8], to path: String) -> Bool {
        FileManager.default.createFile(
            atPath: path, contents: Data(bytes), attributes: [.posixPermissions: 0o600])
    }

    /// The names in directory `path`, empty when it cannot be listed.
    static func names(in path: String) -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
    }
}
