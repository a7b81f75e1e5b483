import EAC
import SmartCard

/// EF.ATR/INFO (2F01, short file identifier 01; ISO/IEC 7816-4, 13.2.2, and ICAO Doc 9303-10,
/// 3.11.1): what the ATR has no room for. The nPA, like every PACE document that accepts
/// extended length APDUs, puts its extended length information there: the largest command and
/// response it takes (tag 7F66 with two INTEGERs).
public enum AnswerToResetInformation {
    public static let fileID: UInt16 = 0x2F01
    public static let shortFileID: UInt8 = 0x01

    /// The simulated card takes any extended length APDU: 65535 command data bytes, 65536
    /// response bytes.
    public static let maxCommandBytes = 0xFFFF
    public static let maxResponseBytes = 0x1_0000

    public static let content: [UInt8] = TLV(
        tag: 0x7F66,
        children: [
            DER.encodeInteger(maxCommandBytes),
            DER.encodeInteger(maxResponseBytes),
        ]
    ).bytes
}
