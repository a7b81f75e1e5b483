import EAC
import TestPKI

/// What one authentication session asks for: its identifier (the TcToken's SessionIdentifier),
/// the server's PKI, the rights it requires and would like, the checks of authenticated
/// auxiliary data, transaction info, its faults and how long it may stall.
public struct SessionConfiguration: Sendable {
    /// The read rights with an SDK name that TR-03127 lets a client show (DG1–DG10, DG13,
    /// DG17–DG20): what the server reads unless told otherwise.
    public static let defaultRequiredRights: Set<AccessRight> = Set(
        AccessRight.allCases.filter { right in
            guard let group = right.dataGroup, right.rawValue < AccessRight.writeDG22.rawValue else { return false }
            return right.sdkName != nil && group <= 20
        })

    public var sessionIdentifier: String
    public var pki: ServerPKI
    public var requiredRights: Set<AccessRight>
    public var optionalRights: Set<AccessRight>
    public var verifications: Verifications
    public var transactionInfo: String?
    public var faults: ServerFaults
    /// Seconds a session may wait for the client's next message before it times out.
    public var timeout: Double
    /// Seconds a new session waits for StartPAOS before it times out (at most `timeout`): TcTokens
    /// fetched and never used free their slots soon.
    public var startTimeout: Double
    /// Today, for certificates issued for faults and the age verification's date.
    public var date: CalendarDate
    /// The CVCA link chain of TR-03124-2 module C3 the session sends (nil: the PKI's own chain).
    public var cvcaChain: CVCAChainStaging?
    /// The SHA-256 hash the fault `tls_not_in_description` puts into CommCertificates instead.
    static let foreignCertificateHash = [UInt8](repeating: 0xEE, count: 32)

    public init(
        sessionIdentifier: String, pki: ServerPKI, requiredRights: Set<AccessRight> = defaultRequiredRights,
        optionalRights: Set<AccessRight> = [], verifications: Verifications = Verifications(),
        transactionInfo: String? = nil, faults: ServerFaults = ServerFaults(), timeout: Double = 120,
        startTimeout: Double = 30, date: CalendarDate = .todayUTC(), cvcaChain: CVCAChainStaging? = nil
    ) {
        self.sessionIdentifier = sessionIdentifier
        self.pki = pki
        self.requiredRights = requiredRights
        self.optionalRights = optionalRights
        self.verifications = verifications
        self.transactionInfo = transactionInfo
        self.faults = faults
        self.timeout = timeout
        self.startTimeout = startTimeout
        self.date = date
        self.cvcaChain = cvcaChain
    }

    /// The checks the card makes for the server with authenticated auxiliary data (docs/protocol.md,
    /// "Authenticated auxiliary data"): VERIFY through Transmit, each answered pass or fail.
    public struct Verifications: Equatable, Sendable {
        /// Age verification: the holder is at least this old (years) on the session's date.
        public var minimumAge: Int?
        /// Document validity: the card is still valid on this date.
        public var validOn: CalendarDate?
        /// Community-ID verification: DG18 starts with these bytes.
        public var communityID: [UInt8]?

        public init(minimumAge: Int? = nil, validOn: CalendarDate? = nil, communityID: [UInt8]? = nil) {
            self.minimumAge = minimumAge
            self.validOn = validOn
            self.communityID = communityID
        }

        public var isEmpty: Bool { minimumAge == nil && validOn == nil && communityID == nil }
    }
}
