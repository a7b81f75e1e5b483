/// The file identifiers of the eID card's master file (BSI TR-03110-3, appendix A.1.2).
public enum EIDFile {
    public static let cardAccess: UInt16 = 0x011C
    public static let cardAccessShortID: UInt8 = 0x1C
    public static let cardSecurity: UInt16 = 0x011D
    public static let cardSecurityShortID: UInt8 = 0x1D
    public static let chipSecurity: UInt16 = 0x011B
    public static let eIDApplicationID: [UInt8] = [0xE8, 0x07, 0x04, 0x00, 0x7F, 0x00, 0x07, 0x03, 0x02]
}
