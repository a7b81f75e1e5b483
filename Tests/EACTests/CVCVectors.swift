import EAC
import Foundation
import TestVectors

/// The CV certificate chains of cvc_chain.json (AusweisApp test and production PKI, BSI worked
/// example), as decoded there.
struct CVCVector {
    struct Certificate {
        let hex: [UInt8]
        let body: [UInt8]
        let signature: [UInt8]
        let fields: [String: Any]
    }

    let name: String
    let certificates: [Certificate]
    let values: [String: Any]

    static let names = ["detesteid_eac1", "decvcaeid_production", "bsi_worked_example_p512"]

    /// A date on which the chain's last CVCA, DV and terminal certificates are all valid.
    static let validationDates: [String: CalendarDate] = [
        "detesteid_eac1": CalendarDate(year: 2020, month: 6, day: 1)!,
        "decvcaeid_production": CalendarDate(year: 2014, month: 11, day: 7)!,
        "bsi_worked_example_p512": CalendarDate(year: 2010, month: 10, day: 1)!,
    ]

    init(_ name: String) throws {
        guard let values = try Fixture.values("cvc_chain")[name] as? [String: Any],
            let chain = values["chain"] as? [[String: Any]]
        else { throw FixtureError.missing(name) }
        self.name = name
        self.values = values
        certificates = try chain.map {
            Certificate(
                hex: try hex($0["hex"] as? String ?? ""), body: try hex($0["body_7f4e"] as? String ?? ""),
                signature: try hex($0["signature_5f37"] as? String ?? ""), fields: $0)
        }
    }

    var validationDate: CalendarDate { CVCVector.validationDates[name]! }

    func parsed() throws -> [CVCertificate] { try certificates.map { try CVCertificate(encoded: $0.hex) } }
}

extension AccessRight {
    /// The vector's wording ("Read DG1 (Document Type)", "Write DG17", "PIN Management", ...).
    init?(vectorName: String) {
        let table: [String: AccessRight] = [
            "Age Verification": .ageVerification, "Community ID Verification": .communityIDVerification,
            "Restricted Identification": .restrictedIdentification, "Privileged Terminal": .privilegedTerminal,
            "CAN allowed": .canAllowed, "PIN Management": .pinManagement, "Install Certificate": .installCertificate,
            "Install Qualified Certificate": .installQualifiedCertificate,
        ]
        if let right = table[vectorName] {
            self = right
            return
        }
        let words = vectorName.split(separator: " ")
        guard words.count >= 2, words[1].hasPrefix("DG"), let dg = Int(words[1].dropFirst(2)) else { return nil }
        let found = AccessRight.allCases.first {
            $0.dataGroup == dg && ($0.rawValue >= 32) == (words[0] == "Write")
        }
        guard let found else { return nil }
        self = found
    }
}
