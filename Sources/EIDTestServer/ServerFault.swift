import EAC

/// A fault the test eID server injects into one session (issue 9, item 3), named as in
/// `/tctoken?fault=NAME[,NAME]`: what `EIDServerSession` sends differently. The faults of the
/// HTTP/TLS front end (slow, psk, …) are its own (TestServerHTTPS's `TransportFault`), which takes
/// their names out of the list before the session gets it.
public enum ServerFault: String, CaseIterable, Sendable, Comparable {
    // Session faults: what a conforming client must refuse.
    /// The EAC2 signature is not the AT key's signature: the card answers EXTERNAL AUTHENTICATE with 6300.
    case wrongTASignature = "wrong_ta_signature"
    /// The AT certificate expired yesterday.
    case expiredAT = "expired_at"
    /// The certificate description is not the one whose hash the AT certificate carries.
    case descriptionHashMismatch = "description_hash_mismatch"
    /// CommCertificates lacks the hash of the server's TLS certificate.
    case tlsNotInDescription = "tls_not_in_description"
    /// The description's subject URL is of another origin than the server.
    case sopViolation = "sop_violation"
    /// EAC1 carries two AT certificates.
    case twoAT = "two_at"
    /// The AT certificate grants rights its DV certificate does not have (`rightsBeyondDV`) and
    /// the server asks for and reads them: the chain is valid, but the card grants only the AND
    /// of its CHATs and refuses READ BINARY of DG9 (6982), so the server ends with an error.
    case chatBeyondDV = "chat_beyond_dv"
    /// The first Transmit APDU carries a wrong secure messaging MAC.
    case transmitBadMAC = "transmit_bad_mac"
    /// StartPAOSResponse reports an error after the data was read.
    case finalError = "final_error"
    /// The first answer (to StartPAOS) is not well-formed XML.
    case brokenXML = "broken_xml"
    /// StartPAOS is answered with DIDAuthenticate EAC2 instead of EAC1.
    case wrongOrder = "wrong_order"
    /// The server drops the connection after the first TransmitResponse, without an answer.
    case abortMidTransmit = "abort_mid_transmit"
    /// The EAC2 signature is the AT key's r ‖ s followed by zero bytes, `oversizedLength` bytes in
    /// all: not the 2 × field size of a plain ECDSA signature (TR-03111), and more than any APDU carries.
    case oversizedTASignature = "oversized_ta_signature"
    /// The authenticated auxiliary data carry an age verification and a community ID of
    /// `oversizedLength` bytes (02 76 and zeros): far beyond the three short templates of
    /// TR-03110-3 A.6.5, and more than any APDU carries.
    case oversizedAuxData = "oversized_aux_data"
    /// The first Transmit carries, after SELECT, RESET RETRY COUNTER that changes the PIN to
    /// `changedPIN`, although the server's CHAT has no "PIN management": the card refuses it
    /// (6982), the server ends with an error and the PIN stays.
    case transmitChangePIN = "transmit_change_pin"
    // Session variants: a conforming client must succeed.
    /// InitializeFramework before EAC1.
    case initializeFramework = "initframework"
    /// EAC2 without the signature; it follows in an EACAdditionalInputType round.
    case eacAdditional = "eac_additional"
    /// Authenticated auxiliary data with an age verification (18 years), VERIFY through Transmit.
    case auxAge = "aux_age"
    /// One APDU per Transmit.
    case transmitSingle = "transmit_single"
    /// A CVCA rollover: the DV and AT are issued under the next CVCA (`ServerPKI.rollover`) and
    /// EAC1 carries the link certificate (next CVCA's key signed by the CVCA the card trusts)
    /// before them; the client takes it into its chain and the card, verifying it, moves its
    /// trust point on.
    case cvcaLink = "cvca_link"
    // TR-03124-2 module B (the eCard-API profile), issue 18: each stages one test case.
    /// EID_CLIENT_B_06: every command in one Transmit, each InputAPDUInfo with its
    /// AcceptableStatusCode, among them an age verification the card answers 6300 (the holder is
    /// not `unreachedAge`), which its codes accept: the client sends every APDU and returns every response.
    case transmitBatch = "transmit_batch"
    /// EID_CLIENT_B_07: the second APDU of the READ BINARY batch reads a data group the effective
    /// CHAT does not grant; the card refuses it (6982), which its AcceptableStatusCode does not
    /// accept. The client must stop there and return the responses up to it; the server sends the
    /// reads after it again in the next Transmit and ends with ok. A response after the refused
    /// one ends the session (`transmit_not_stopped`).
    case transmitStop = "transmit_stop"
    /// EID_CLIENT_B_33: the AcceptableStatusCode elements are the status words' first bytes alone
    /// (90, 63, 62), as TR-03112-6 lets a server give them (a status word is acceptable when it
    /// starts with one), with the age verification of `transmit_batch` answered 6300.
    case transmitStatusPrefix = "transmit_status_prefix"
    /// EID_CLIENT_B_09: EAC2InputType carries the AT certificate of another eService (another
    /// holder, key and description, under the same DV). The client ignores it and uses the AT
    /// certificate of EAC1, whose key signed.
    case eac2OtherAT = "eac2_other_at"
    /// EID_CLIENT_B_10: EAC2InputType carries an AT certificate that expired yesterday. The
    /// client ignores it.
    case eac2ExpiredAT = "eac2_expired_at"
    /// EID_CLIENT_B_20: StartPAOSResponse with an error (al/common#internalError) answers the
    /// EAC1 output: the server ends the session before EAC2.
    case endAfterEAC1 = "end_after_eac1"
    /// EID_CLIENT_B_21: StartPAOSResponse with an error answers the EAC2 output (after Chip
    /// Authentication), before any Transmit.
    case endAfterEAC2 = "end_after_eac2"
    /// EID_CLIENT_B_22: EAC2 without the signature, and StartPAOSResponse with an error answers the
    /// challenge instead of EACAdditionalInputType.
    case endAfterEAC2Challenge = "end_after_eac2_challenge"
    /// EID_CLIENT_B_22: EAC2 without the signature, EACAdditionalInputType with it, and
    /// StartPAOSResponse with an error answers the EAC2 output of that round.
    case endAfterEACAdditional = "end_after_eac_additional"
    /// EID_CLIENT_B_11: EAC1InputType without any Certificate element.
    case eac1NoCertificate = "eac1_no_certificate"
    /// EID_CLIENT_B_12: EAC1InputType without the CertificateDescription element.
    case eac1NoDescription = "eac1_no_description"
    /// EID_CLIENT_B_13: EAC1InputType with the CertificateDescription element twice.
    case eac1TwoDescriptions = "eac1_two_descriptions"
    /// EID_CLIENT_B_14: EAC2InputType without the EphemeralPublicKey element.
    case eac2NoEphemeralKey = "eac2_no_ephemeral_key"
    /// EID_CLIENT_B_15: EAC2InputType with the EphemeralPublicKey element twice.
    case eac2TwoEphemeralKeys = "eac2_two_ephemeral_keys"
    /// EID_CLIENT_B_24: the DV certificate's signature is not the CVCA's (its last byte changed):
    /// a pre-verifying client refuses the chain before the card.
    case dvForged = "dv_forged"
    /// EID_CLIENT_B_31: EAC1 carries the certificates in reverse order (AT first, then DV, then
    /// the link certificates of `cvca_link`). The client orders the chain itself.
    case certificatesReversed = "certificates_reversed"
    /// EID_CLIENT_D_19: EAC1InputType without RequiredCHAT and OptionalCHAT: the client offers the
    /// AT certificate's rights, all optional and preselected; the server takes any of them.
    case eac1NoCHATs = "eac1_no_chats"
    // TR-03124-2 modules A3 and A4 (the certificate description's subjectURL), issue 18.
    /// EID_CLIENT_A3_03, EID_CLIENT_A4_03: the certificate description has no subjectURL. The
    /// client refuses it before the card (as AusweisApp2 does) and checks the refresh address
    /// against the tcTokenURL instead: the same origin, so the browser goes to the refresh address.
    case noSubjectURL = "no_subject_url"
    /// EID_CLIENT_A3_05: the description's subjectURL is the server's origin with another port
    /// (the port after it): a same-origin violation the client must refuse before the card.
    case sopViolationPort = "sop_violation_port"

    /// What the DV certificate of `chat_beyond_dv` lacks of the AT's rights.
    public static let rightsBeyondDV: Set<AccessRight> = [
        .readDG9, .ageVerification, .communityIDVerification, .restrictedIdentification,
    ]

    /// The PIN `transmit_change_pin` tries to set.
    public static let changedPIN: [UInt8] = Array("000000".utf8)

    /// The length of the oversized signature and auxiliary data: more than the 65535 data bytes of
    /// an extended-length APDU, well within the 512 KiB a PAOS message may have as hex.
    public static let oversizedLength = 70_000

    /// The age `transmit_batch` and `transmit_status_prefix` verify: no card holder is that old,
    /// so the card answers VERIFY with 6300.
    public static let unreachedAge = 150

    /// Whether a conforming client ends the session successfully despite the fault.
    public var clientSucceeds: Bool {
        switch self {
        case .initializeFramework, .eacAdditional, .auxAge, .transmitSingle, .cvcaLink, .transmitBatch, .transmitStop,
            .transmitStatusPrefix, .eac2OtherAT, .eac2ExpiredAT, .certificatesReversed,
            .eac1NoCHATs:
            return true
        default: return false
        }
    }

    /// Whether EAC2 goes without the signature, which an EACAdditionalInputType round brings.
    var splitsEAC2: Bool { [.eacAdditional, .endAfterEAC2Challenge, .endAfterEACAdditional].contains(self) }

    public static func < (lhs: ServerFault, rhs: ServerFault) -> Bool {
        (allCases.firstIndex(of: lhs) ?? 0) < (allCases.firstIndex(of: rhs) ?? 0)
    }
}

/// The faults of one session, parsed from the `fault` query parameter: names separated by
/// commas, each at most once, none unknown.
public struct ServerFaults: Equatable, Sendable, Sequence {
    public private(set) var faults: Set<ServerFault>

    public init(_ faults: Set<ServerFault> = []) { self.faults = faults }

    /// Parses `NAME[,NAME]`; empty text is no fault. An unknown or repeated name throws
    /// `ServerFaultError` (the name cut to 32 printable ASCII characters).
    public init(parsing text: String) throws(ServerFaultError) {
        var faults: Set<ServerFault> = []
        guard !text.isEmpty else {
            self.init()
            return
        }
        for name in text.split(separator: ",", omittingEmptySubsequences: false).map(String.init) {
            guard let fault = ServerFault(rawValue: name) else { throw .unknown(ServerFaultError.cut(name)) }
            guard faults.insert(fault).inserted else { throw .repeated(fault.rawValue) }
        }
        self.init(faults)
    }

    public func contains(_ fault: ServerFault) -> Bool { faults.contains(fault) }

    /// The first of `candidates` among the faults (the early end a session stages at a step).
    func first(of candidates: [ServerFault]) -> ServerFault? { candidates.first(where: faults.contains) }

    public func makeIterator() -> IndexingIterator<[ServerFault]> { faults.sorted().makeIterator() }

    /// The names, comma-separated in declaration order (what `init(parsing:)` reads back).
    public var text: String { faults.sorted().map(\.rawValue).joined(separator: ",") }
}

/// Why a `fault=` value is refused.
public enum ServerFaultError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A name that is no fault (cut short, printable ASCII only).
    case unknown(String)
    /// A name given twice.
    case repeated(String)

    public var description: String {
        switch self {
        case .unknown(let name):
            return "unknown fault \"\(name)\": use one or more of "
                + ServerFault.allCases.map(\.rawValue).joined(separator: ", ") + ", separated by commas"
        case .repeated(let name): return "the fault \(name) is named twice: name each fault once"
        }
    }

    static func cut(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.filter { $0.value >= 0x20 && $0.value < 0x7F }.prefix(32)))
    }
}
