import EAC

/// The same bytes as EF.CardAccess and as EF.CardSecurity (CMS SignedData around
/// SecurityInfos), and what the client reads from them (PACE and Chip Authentication choices).
enum SecurityInfosFuzzing {
    static func run(_ data: [UInt8]) {
        if let infos = try? SecurityInfos(efCardAccess: data) { use(infos) }
        if let infos = try? SecurityInfos(efCardSecurity: data) { use(infos) }
    }

    private static func use(_ infos: SecurityInfos) {
        _ = try? infos.runnablePACEInfo()
        _ = try? ChipAuthentication.select(from: infos)
        _ = infos.terminalAuthenticationInfo
        _ = infos.cardInfoLocator
        _ = infos.privilegedTerminalInfos
        _ = try? SecurityInfos(der: infos.der)
    }
}
