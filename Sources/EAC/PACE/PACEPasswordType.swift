/// The passwords of PACE, by the password reference that names them in MSE:Set AT (data
/// object 83) and in RESET RETRY COUNTER (P2) (BSI TR-03110-3, D.3.3 table 40; ICAO 9303-11,
/// 4.4.1): the one type for both the terminal and the software card.
public enum PACEPasswordType: UInt8, Sendable, CaseIterable {
    case mrz = 1
    case can = 2
    case pin = 3
    case puk = 4
}
