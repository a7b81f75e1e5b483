import EIDCrypto
import SmartCard

/// The commands of Chip Authentication version 2 (BSI TR-03110-3, B.14.1, B.11.2;
/// docs/protocol.md, "Chip Authentication"), with the status words a card answers (`EACCommandOutcome` reads them).
extension CommandAPDU {
    /// MSE:Set AT for Chip Authentication `00 22 41 A4 | 80 CA OID | [84 key id]`.
    ///
    /// | SW | meaning |
    /// |---|---|
    /// | 9000 | set |
    /// | 6A80 | not a CA protocol the card runs, or broken data |
    /// | 6A88 | the card has no key with this id |
    public static func mseSetAT(chipAuthentication protocol: ChipAuthenticationProtocol, keyID: Int?)
        throws(CommandAPDUError) -> CommandAPDU
    {
        var data = TLV(tag: 0x80, value: `protocol`.oid.derValue).bytes
        if let keyID { data += TLV(tag: 0x84, value: DER.unsignedBytes(keyID)).bytes }
        return try CommandAPDU(ins: 0x22, p1: 0x41, p2: 0xA4, data: data)
    }

    /// GENERAL AUTHENTICATE `00 86 00 00 | 7C { 80 PK_PCD } | 00` → `7C { 81 r_PICC, 82 T_PICC }`.
    ///
    /// | SW | meaning |
    /// |---|---|
    /// | 9000 | keys agreed; the answer is still protected with the old keys, the next command must use the new ones with SSC 0 |
    /// | 6985 | no MSE:Set AT for CA, or no Terminal Authentication before |
    /// | 6A80 | the key is not a point on the card's curve, or its x-coordinate is not the one announced in TA |
    public static func generalAuthenticate(chipAuthentication terminalKey: ECPoint) throws(CommandAPDUError)
        -> CommandAPDU
    {
        let data = TLV(tag: 0x7C, children: [TLV(tag: 0x80, value: terminalKey.encoded)]).bytes
        return try CommandAPDU(ins: 0x86, p1: 0x00, p2: 0x00, data: data, ne: CommandAPDU.maxShortNe)
    }
}
