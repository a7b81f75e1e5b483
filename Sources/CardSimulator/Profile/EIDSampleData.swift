/// The default data of the eID application: the ERIKA MUSTERMANN sample card (docs/protocol.md,
/// "Sample data"; AusweisApp2's simulator defaults), encoded with the data groups' ASN.1 ("eID data groups"). Test data
/// of no real person.
public enum EIDSampleData {
    /// DG number → content (DER of the whole data group).
    public static let dataGroups: [Int: [UInt8]] = {
        var groups: [Int: [UInt8]] = [:]
        let texts: [(Int, String)] = [
            (1, "ID"), (2, "D"), (3, "20340630"), (4, "ERIKA"), (5, "MUSTERMANN"), (6, ""), (7, ""), (8, "19840812"),
            (9, "BERLIN"), (10, "D"), (11, "F"), (13, "GABLER"), (15, "20191101"), (18, "02760503150000"),
            (19, "RESIDENCE PERMIT 1"), (20, "RESIDENCE PERMIT 2"), (21, "tel:+49-030-1234567"),
        ]
        for (number, text) in texts {
            // The sample's values fit their types; a failure here is a bug caught by the tests.
            groups[number] = try? EIDDataGroup.encode(number, text: text)
        }
        groups[17] = try? EIDDataGroup.place(
            17, street: "HEIDESTRAẞE 17", city: "KÖLN", state: nil, country: "D", zipCode: "51147")
        return groups
    }()
}
