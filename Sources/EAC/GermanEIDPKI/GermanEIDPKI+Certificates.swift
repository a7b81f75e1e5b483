// The certificates are the DER files in CVCA/, one per certificate named after its CHR, embedded
// into the binary at build time (Package.swift: `.embedInCode`, no Foundation and no bundle at run
// time); CVCA/README.md says where they come from and how to add one. Each entry names the CHR, CAR
// and validity the certificate itself states; GermanEIDPKITests check them and that every file in
// CVCA/ is listed here.

extension GermanEIDPKI {
    /// The production CVCA of the German eID PKI (DECVCAeID, run by the BSI) and its link
    /// certificates, newest first. Public source: the CVCA certificates the BSI publishes for the
    /// eID PKI, as shipped in AusweisApp 2.5.3 (github.com/Governikus/AusweisApp,
    /// resources/config.json.in, "cvRootCertificates").
    static let productionEncoded: [EncodedCVCA] = [
        // CHR DECVCAeID00107 (link certificate from DECVCAeID00106), valid 2023-11-28 to 2026-11-27.
        EncodedCVCA(
            holderReference: "DECVCAeID00107", authorityReference: "DECVCAeID00106",
            bytes: PackageResources.DECVCAeID00107_der),
        // CHR DECVCAeID00106 (link certificate from DECVCAeID00105), valid 2021-03-09 to 2024-03-09.
        EncodedCVCA(
            holderReference: "DECVCAeID00106", authorityReference: "DECVCAeID00105",
            bytes: PackageResources.DECVCAeID00106_der),
        // CHR DECVCAeID00105 (link certificate from DECVCAeID00104), valid 2018-06-12 to 2021-06-12.
        EncodedCVCA(
            holderReference: "DECVCAeID00105", authorityReference: "DECVCAeID00104",
            bytes: PackageResources.DECVCAeID00105_der),
        // CHR DECVCAeID00104 (link certificate from DECVCAeID00103), valid 2015-09-14 to 2018-09-14.
        EncodedCVCA(
            holderReference: "DECVCAeID00104", authorityReference: "DECVCAeID00103",
            bytes: PackageResources.DECVCAeID00104_der),
        // CHR DECVCAeID00103 (link certificate from DECVCAeID00102), valid 2012-12-03 to 2015-12-03.
        EncodedCVCA(
            holderReference: "DECVCAeID00103", authorityReference: "DECVCAeID00102",
            bytes: PackageResources.DECVCAeID00103_der),
        // CHR DECVCAeID00102 (self-signed), valid 2010-10-18 to 2013-10-18.
        EncodedCVCA(
            holderReference: "DECVCAeID00102", authorityReference: "DECVCAeID00102",
            bytes: PackageResources.DECVCAeID00102_der),
    ]

    /// The CVCAs of the German eID test PKIs (DETESTeID, and the conformity test CVCA
    /// DECVCAeIDCT) and their link certificates, newest first. Public source: as shipped in
    /// AusweisApp 2.5.3 (github.com/Governikus/AusweisApp, resources/config.json.in,
    /// "cvRootCertificatesTest").
    static let testEncoded: [EncodedCVCA] = [
        // CHR DETESTeID00008 (link certificate from DETESTeID00007), valid 2023-08-08 to 2026-08-07.
        EncodedCVCA(
            holderReference: "DETESTeID00008", authorityReference: "DETESTeID00007",
            bytes: PackageResources.DETESTeID00008_der),
        // CHR DETESTeID00007 (link certificate from DETESTeID00006), valid 2020-10-13 to 2023-10-13.
        EncodedCVCA(
            holderReference: "DETESTeID00007", authorityReference: "DETESTeID00006",
            bytes: PackageResources.DETESTeID00007_der),
        // CHR DETESTeID00006 (link certificate from DETESTeID00005), valid 2018-02-05 to 2021-02-05.
        EncodedCVCA(
            holderReference: "DETESTeID00006", authorityReference: "DETESTeID00005",
            bytes: PackageResources.DETESTeID00006_der),
        // CHR DETESTeID00005 (link certificate from DETESTeID00004), valid 2015-05-04 to 2018-05-04.
        EncodedCVCA(
            holderReference: "DETESTeID00005", authorityReference: "DETESTeID00004",
            bytes: PackageResources.DETESTeID00005_der),
        // CHR DETESTeID00004 (link certificate from DETESTeID00002), valid 2012-05-11 to 2015-05-11.
        EncodedCVCA(
            holderReference: "DETESTeID00004", authorityReference: "DETESTeID00002",
            bytes: PackageResources.DETESTeID00004_der),
        // CHR DETESTeID00002 (link certificate from DETESTeID00001), valid 2010-09-21 to 2013-09-21.
        EncodedCVCA(
            holderReference: "DETESTeID00002", authorityReference: "DETESTeID00001",
            bytes: PackageResources.DETESTeID00002_der),
        // CHR DETESTeID00001 (self-signed), valid 2010-08-13 to 2013-08-13.
        EncodedCVCA(
            holderReference: "DETESTeID00001", authorityReference: "DETESTeID00001",
            bytes: PackageResources.DETESTeID00001_der),
        // CHR DECVCAeIDCTL0405 (link certificate from DECVCAeIDCTL0404), valid 2024-03-06 to 2027-03-06.
        EncodedCVCA(
            holderReference: "DECVCAeIDCTL0405", authorityReference: "DECVCAeIDCTL0404",
            bytes: PackageResources.DECVCAeIDCTL0405_der),
        // CHR DECVCAeIDCTL0404 (link certificate from DECVCAeIDCTL0403), valid 2024-03-06 to 2027-03-06.
        EncodedCVCA(
            holderReference: "DECVCAeIDCTL0404", authorityReference: "DECVCAeIDCTL0403",
            bytes: PackageResources.DECVCAeIDCTL0404_der),
        // CHR DECVCAeIDCTL0403 (link certificate from DECVCAeIDCTL0402), valid 2024-03-06 to 2027-03-06.
        EncodedCVCA(
            holderReference: "DECVCAeIDCTL0403", authorityReference: "DECVCAeIDCTL0402",
            bytes: PackageResources.DECVCAeIDCTL0403_der),
        // CHR DECVCAeIDCTL0402 (link certificate from DECVCAeIDCTL0401), valid 2024-03-06 to 2027-03-06.
        EncodedCVCA(
            holderReference: "DECVCAeIDCTL0402", authorityReference: "DECVCAeIDCTL0401",
            bytes: PackageResources.DECVCAeIDCTL0402_der),
        // CHR DECVCAeIDCTL0401 (link certificate from DECVCAeIDCT00001), valid 2024-03-06 to 2027-03-06.
        EncodedCVCA(
            holderReference: "DECVCAeIDCTL0401", authorityReference: "DECVCAeIDCT00001",
            bytes: PackageResources.DECVCAeIDCTL0401_der),
        // CHR DECVCAeIDCT00001 (self-signed), valid 2024-03-06 to 2027-03-06.
        EncodedCVCA(
            holderReference: "DECVCAeIDCT00001", authorityReference: "DECVCAeIDCT00001",
            bytes: PackageResources.DECVCAeIDCT00001_der),
    ]
}
