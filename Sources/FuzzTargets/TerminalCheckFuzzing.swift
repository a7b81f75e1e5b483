import EAC
import Online
import TestPKI
import Workflows

/// EAC1InputType as the client checks it before PACE (TerminalCheck), and the access rights it
/// would show. The input's fields (FuzzFields): certificate description, required CHAT,
/// optional CHAT, authenticated auxiliary data (each empty for absent), then the certificates.
/// Trusted: the project's test CVCA and the German test PKI's CVCAs; the date and the TcToken
/// URL are fixed (the seeds are issued for them, see FuzzSeeds).
public enum TerminalCheckFuzzing {
    public static let date = CalendarDate(year: 2026, month: 11, day: 25)!
    public static let tcTokenURL = "https://127.0.0.1:18443/tcToken"
    public static let tlsCertificate = Array("eid fuzzing: TLS certificate".utf8)
    static let trustAnchors = [TestCertificateAuthority.project.certificate] + GermanEIDPKI.test.anchors

    static func run(_ data: [UInt8]) {
        let fields = FuzzFields.split(data)
        guard fields.count >= 5 else { return }
        let optional = { (i: Int) -> [UInt8]? in fields[i].isEmpty ? nil : fields[i] }
        let input = EAC1InputType(
            certificates: Array(fields[4...]), certificateDescription: optional(0), requiredCHAT: optional(1),
            optionalCHAT: optional(2), authenticatedAuxiliaryData: optional(3), transactionInfo: "fuzz")
        guard
            let check = try? TerminalCheck(
                input, tcTokenURL: tcTokenURL, trustAnchors: trustAnchors, linkCertificates: GermanEIDPKI.test.links,
                date: date, tlsCertificates: [tlsCertificate])
        else { return }
        _ = check.accessRightsInfo(check.accessRights, today: date)
    }

    /// A seed: the fields of `input` as `run` reads them.
    public static func seed(_ input: EAC1InputType) -> [UInt8] {
        FuzzFields.join(
            [
                input.certificateDescription ?? [], input.requiredCHAT ?? [], input.optionalCHAT ?? [],
                input.authenticatedAuxiliaryData ?? [],
            ] + input.certificates)
    }
}
