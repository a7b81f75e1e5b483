import Testing

@testable import EIDTestServer

/// Who logged in, for eid-testserver's refresh page: the names read, only from a session that
/// succeeded.
@Suite struct SessionResultTests {
    @Test func theNamesReadAreWhoLoggedIn() {
        let both = SessionResult(
            ok: true,
            read: [
                .init(name: "FamilyName", value: .string("MUSTERMANN")),
                .init(name: "GivenNames", value: .string("ERIKA")),
            ])
        #expect(both.personName == "ERIKA MUSTERMANN")
        let family = SessionResult(ok: true, read: [.init(name: "FamilyName", value: .string("MUSTERMANN"))])
        #expect(family.personName == "MUSTERMANN")
        #expect(
            SessionResult(ok: true, read: [.init(name: "DateOfBirth", value: .string("19640812"))]).personName == nil)
        #expect(SessionResult(ok: false, read: both.read).personName == nil, "a failed session logged nobody in")
    }
}
