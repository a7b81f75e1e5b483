import SmartCard

/// The commands of Terminal Authentication version 2 (BSI TR-03110-3, B.11; docs/protocol.md, "Terminal
/// Authentication"), each with the status words a card answers (`EACCommandOutcome` reads them). GET
/// CHALLENGE is ISO 7816-4's, defined once in `SmartCard` (`CommandAPDU.getChallenge`).
extension CommandAPDU {
    /// MSE:Set DST `00 22 81 B6 | 83 CAR`: selects the public key (of a trust anchor or an
    /// imported certificate) that the next PSO:Verify Certificate is checked with.
    ///
    /// | SW | meaning |
    /// |---|---|
    /// | 9000 | key selected |
    /// | 6A88 | the card knows no certificate with this CHR |
    /// | 6A80 | no or broken 83 data object |
    public static func mseSetDST(authorityReference car: String) throws(CommandAPDUError) -> CommandAPDU {
        try CommandAPDU(ins: 0x22, p1: 0x81, p2: 0xB6, data: TLV(tag: 0x83, value: Array(car.utf8)).bytes)
    }

    /// PSO:Verify Certificate `00 2A 00 BE | 7F4E body, 5F37 signature` (without the 7F21);
    /// extended length when the certificate is longer than 255 bytes.
    ///
    /// | SW | meaning |
    /// |---|---|
    /// | 9000 | verified and imported |
    /// | 6300 | the signature does not verify under the key MSE:Set DST selected |
    /// | 6985 | no key selected (no MSE:Set DST before) |
    /// | 6A80 | not a certificate, its CAR is not the selected key, wrong role, rights beyond the issuer's, or expired |
    public static func psoVerifyCertificate(_ certificate: CVCertificate) throws -> CommandAPDU {
        try CommandAPDU(ins: 0x2A, p1: 0x00, p2: 0xBE, data: try certificate.bodyAndSignature)
    }

    /// MSE:Set AT for Terminal Authentication `00 22 81 A4 | 80 TA OID | 83 CHR | [67 aux] | 91
    /// Comp(PK_PCD)`.
    ///
    /// | SW | meaning |
    /// |---|---|
    /// | 9000 | set |
    /// | 6A88 | the CHR is not an imported terminal certificate |
    /// | 6A80 | the algorithm is not the certificate's, or a data object is missing or broken |
    /// | 6985 | no PACE with a CHAT in this session |
    public static func mseSetAT(terminalAuthentication template: TerminalAuthenticationTemplate)
        throws(CommandAPDUError) -> CommandAPDU
    {
        try CommandAPDU(ins: 0x22, p1: 0x81, p2: 0xA4, data: template.encoded)
    }

    /// EXTERNAL AUTHENTICATE `00 82 00 00 | signature` (plain r || s).
    ///
    /// | SW | meaning |
    /// |---|---|
    /// | 9000 | terminal authenticated; its effective rights apply |
    /// | 6300 | the signature does not verify: the terminal gets no access |
    /// | 6985 | no MSE:Set AT for TA or no GET CHALLENGE before |
    public static func externalAuthenticate(signature: [UInt8]) throws(CommandAPDUError) -> CommandAPDU {
        try CommandAPDU(ins: 0x82, p1: 0x00, p2: 0x00, data: signature)
    }
}
