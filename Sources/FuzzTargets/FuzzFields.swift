/// Splits one fuzz input into several byte strings (certificates, APDUs, PAOS bodies): each is
/// a two-byte big-endian length and that many bytes; a last field cut short takes what is left.
/// The multi-part seeds in Tests/Fuzz/Corpus are written the same way (`join`).
public enum FuzzFields {
    public static let maximumCount = 64

    public static func split(_ data: [UInt8]) -> [[UInt8]] {
        var fields: [[UInt8]] = []
        var offset = 0
        while offset + 2 <= data.count, fields.count < maximumCount {
            let length = Int(data[offset]) << 8 | Int(data[offset + 1])
            let end = min(data.count, offset + 2 + length)
            fields.append(Array(data[(offset + 2)..<end]))
            offset = end
        }
        return fields
    }

    public static func join(_ fields: [[UInt8]]) -> [UInt8] {
        fields.flatMap { [UInt8(truncatingIfNeeded: $0.count >> 8), UInt8(truncatingIfNeeded: $0.count)] + $0 }
    }
}
