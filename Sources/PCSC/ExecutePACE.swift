import SmartCard

/// The framing of FEATURE_EXECUTE_PACE (PC/SC Part 10 AMD1, 2.6): SCardControl's input is the
/// function index, the length of the function's InputData (2 bytes, little endian) and the
/// InputData; its output is the Result (4 bytes, little endian), the length of the OutputData
/// (2 bytes, little endian) and the OutputData.
enum ExecutePACE {
    /// The functions eid calls.
    enum Function: UInt8 {
        case establishPACEChannel = 0x02
        case destroyPACEChannel = 0x03
    }

    /// SCardControl's input for `function` with `inputData`.
    static func controlInput(_ function: Function, inputData: [UInt8] = []) throws -> [UInt8] {
        guard inputData.count <= 0xFFFF else {
            throw CardError.malformedCommand("the InputData of EXECUTE_PACE has \(inputData.count) bytes, over 65535")
        }
        return [function.rawValue, UInt8(inputData.count & 0xFF), UInt8(inputData.count >> 8)] + inputData
    }

    /// The Result of an answer (Result, length, OutputData), checking the framing only: nil when
    /// the answer is shorter than Result and length, or its length field disagrees with it.
    static func result(of output: [UInt8]) -> UInt32? {
        guard output.count >= 6, Int(output[4]) | Int(output[5]) << 8 == output.count - 6 else { return nil }
        return UInt32(output[0]) | UInt32(output[1]) << 8 | UInt32(output[2]) << 16 | UInt32(output[3]) << 24
    }
}
