import TestPKI

/// The card's passive authentication PKI and Chip Authentication key, now in `TestPKI` so that
/// the test eID server verifies EF.CardSecurity without depending on the card; the old name
/// stays for code that imports only CardSimulator.
public typealias SimulatorTestPKI = DocumentTestPKI
