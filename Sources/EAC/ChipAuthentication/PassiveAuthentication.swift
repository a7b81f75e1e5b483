import EIDCrypto
import SmartCard

/// Passive authentication of EF.CardSecurity (BSI TR-03110-3, A.1.2.2; ICAO 9303-11): the file is
/// CMS SignedData over SecurityInfos (eContentType id-SecurityObject), signed by a document
/// signer whose certificate chains to a CSCA. OpenSSL's CMS verifies signature and path.
public enum PassiveAuthentication {
    /// Reads EF.CardSecurity (SFI 1D) through `channel` (inside PACE secure messaging).
    public static func readCardSecurity(_ channel: CardChannel) throws -> [UInt8] {
        do { return try channel.readFile(shortFileID: EIDFile.cardSecurityShortID) } catch CardError.statusWord(
            let sw)
        {
            throw ChipAuthenticationError.refused(step: .readCardSecurity, EACCommandOutcome(statusWord: sw))
        }
    }

    /// The SecurityInfos of `efCardSecurity` once its signature verifies and its signer chains to
    /// `csca` at `time` (seconds since 1970; nil: now). `csca` nil checks only the signature
    /// with the signer certificate inside the file (when no CSCA is at hand: not an authentication
    /// of the card's origin).
    public static func verify(_ efCardSecurity: [UInt8], csca: X509Certificate?, time: Int64? = nil) throws
        -> SecurityInfos
    {
        let content: CMSSignedData.Content
        do { content = try CMSSignedData.verify(efCardSecurity, trustAnchor: csca, time: time) } catch {
            throw ChipAuthenticationError.passiveAuthenticationFailed
        }
        guard content.contentType == OID.idSecurityObject.dotted,
            let infos = try? SecurityInfos(der: content.content)
        else { throw ChipAuthenticationError.passiveAuthenticationFailed }
        return infos
    }

    /// The SecurityInfos an eID client takes from `efCardSecurity`: with `csca`, once the file
    /// verifies under it (`verify`); without, parsed strictly (ContentInfo, id-signedData,
    /// id-SecurityObject, DER SecurityInfos) and its signature left to the eID server, whose
    /// passive authentication decides (TR-03130), as AusweisApp's `EFCardSecurity::decode` does.
    /// A signature checked without a CSCA would prove nothing about the card's origin, and it
    /// refuses cards AusweisApp serves (vsmartcard's nPA emulator without a CA key file writes
    /// a fresh Chip Authentication key into the signed file).
    public static func securityInfos(_ efCardSecurity: [UInt8], csca: X509Certificate?, time: Int64? = nil) throws
        -> SecurityInfos
    {
        if let csca { return try verify(efCardSecurity, csca: csca, time: time) }
        do { return try SecurityInfos(efCardSecurity: efCardSecurity) } catch {
            throw ChipAuthenticationError.malformedCardSecurity
        }
    }

    /// EF.CardSecurity for a card: `infos` signed by the document signer (test tools only).
    public static func sign(_ infos: SecurityInfos, signer: X509Certificate, key: X509PrivateKey) throws -> [UInt8] {
        try CMSSignedData.sign(infos.der, contentType: OID.idSecurityObject.dotted, signer: signer, key: key)
    }
}
