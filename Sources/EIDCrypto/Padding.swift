/// ISO/IEC 9797-1 padding method 2 (BSI TR-03110-3, F.2; ICAO 9303-11, 9.8.6.1): a mandatory
/// 0x80 followed by the fewest 0x00 bytes that fill the last block.
public enum Padding {
    /// `data` || 80 || 00...00, a multiple of `blockSize` long (always at least one byte added).
    /// The result is built in one allocation, so a secret being padded leaves no stray copy
    /// in a buffer that grew.
    public static func pad(_ data: [UInt8], blockSize: Int = AES.blockSize) -> [UInt8] {
        let length = (data.count / blockSize + 1) * blockSize
        return [UInt8](unsafeUninitializedCapacity: length) { buffer, count in
            for i in 0..<data.count { buffer[i] = data[i] }
            buffer[data.count] = 0x80
            for i in (data.count + 1)..<length { buffer[i] = 0 }
            count = length
        }
    }

    /// Removes the padding strictly: the input must be a non-empty multiple of `blockSize`, and
    /// its last block must end in 80 followed only by zeros. Anything else is `invalidPadding`.
    public static func unpad(_ data: [UInt8], blockSize: Int = AES.blockSize) throws -> [UInt8] {
        guard !data.isEmpty, data.count % blockSize == 0 else { throw CryptoError.invalidPadding }
        var i = data.count - 1
        while i >= data.count - blockSize, data[i] == 0x00 { i -= 1 }
        guard i >= data.count - blockSize, data[i] == 0x80 else { throw CryptoError.invalidPadding }
        return Array(data[..<i])
    }
}
