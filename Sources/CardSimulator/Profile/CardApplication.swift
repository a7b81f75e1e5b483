import SmartCard

/// The applications of an nPA, each a DF selected by its application identifier (AID), and
/// EF.DIR, the MF's list of them (ISO/IEC 7816-4, 8.2.1.1 and 12.2.4).
public enum CardApplication {
    /// The eID application (BSI TR-03110-3, A.1.2; a proprietary AID, category E8).
    public static let eID: [UInt8] = EIDFile.eIDApplicationID
    /// The ePass (ICAO LDS1) application (ICAO Doc 9303-10, 4.1; RID A000000247).
    public static let ePass: [UInt8] = [0xA0, 0x00, 0x00, 0x02, 0x47, 0x10, 0x01]
    /// The eSign application (BSI TR-03117; RID A000000167, PIX "ESIGN").
    public static let eSign: [UInt8] = [0xA0, 0x00, 0x00, 0x01, 0x67, 0x45, 0x53, 0x49, 0x47, 0x4E]

    /// The applications of the simulated card, in the order of a real nPA's EF.DIR.
    public static let all: [[UInt8]] = [ePass, eID, eSign]

    /// EF.DIR: 2F00, short file identifier 1E (ICAO Doc 9303-10, 3.11.2).
    public static let directoryFileID: UInt16 = 0x2F00
    public static let directoryShortFileID: UInt8 = 0x1E

    /// The content of EF.DIR: one application template (tag 61) per AID, each holding the
    /// application identifier (tag 4F), one after the other without an enclosing object.
    public static func directory(_ aids: [[UInt8]] = all) -> [UInt8] {
        aids.flatMap { TLV(tag: 0x61, children: [TLV(tag: 0x4F, value: $0)]).bytes }
    }

    /// The file control information a SELECT with P2 = 00 answers for an application: an FCI
    /// template (tag 6F) holding the DF name (tag 84), i.e. the AID (ISO/IEC 7816-4, 7.4.2).
    public static func fileControlInformation(_ aid: [UInt8]) -> [UInt8] {
        TLV(tag: 0x6F, children: [TLV(tag: 0x84, value: aid)]).bytes
    }
}
