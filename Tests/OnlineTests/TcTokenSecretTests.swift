import Glibc
import LockedPages
import Testing

@testable import Online
@testable import SmartCard

/// The TcToken's PSK (issue 15): from the fetched body it goes into a Secret and nowhere else
/// that lasts; the body is zeroed, the XML tree has no copy, libxml2 zeroes what it frees.
@Suite struct TcTokenSecretTests {
    static let hex = "0123456789ABCDEFfedcba98765432100123456789abcdef0123456789ABCDEF"

    static func document(psk: String) -> [UInt8] {
        Array(
            """
            <TCTokenType><ServerAddress>https://eid.example/paos</ServerAddress>\
            <SessionIdentifier>s1</SessionIdentifier><RefreshAddress>https://eid.example/r</RefreshAddress>\
            <CommunicationErrorAddress>https://eid.example/e</CommunicationErrorAddress>\
            <Binding>urn:liberty:paos:2006-08</Binding><PathSecurity-Protocol>urn:ietf:rfc:4279</PathSecurity-Protocol>\
            <PathSecurity-Parameters><PSK>\(psk)</PSK></PathSecurity-Parameters></TCTokenType>
            """.utf8)
    }

    @Test func parsingWipesTheBodyAndKeepsThePSKOnlyInTheSecret() throws {
        var body = Self.document(psk: "\n  " + Self.hex + " ")
        let token = try TcToken.parse(wiping: &body).get()
        #expect(body.allSatisfy { $0 == 0 }, "the fetched body is zeroed")
        let psk = try #require(token.psk)
        #expect(psk.withBytes { $0 } == [UInt8](hex: Self.hex))
        #expect(psk.isMemoryLocked || !memoryLockAllowed)
    }

    @Test func aRefusedTokenWipesTheBodyAndKeepsTheErrorAddress() {
        var body = Self.document(psk: "abc")
        guard case .failure(let refused) = TcToken.parse(wiping: &body) else {
            Issue.record("an odd-length PSK is refused")
            return
        }
        #expect(body.allSatisfy { $0 == 0 })
        #expect(refused.communicationErrorAddress == "https://eid.example/e")
        guard case .invalidPSK = refused.error else {
            Issue.record("invalidPSK")
            return
        }
    }

    @Test func theXMLTreeHasNoTextOfASecretElement() throws {
        var lent: [(String, [UInt8])] = []
        let root = try XMLTreeParser(maximumSize: 4096, secretElements: ["PSK"]).parse(
            Self.document(psk: Self.hex)
        ) { name, bytes in lent.append((name, Array(bytes))) }
        let psk = try #require(root.descendants(named: "PSK").first)
        #expect(psk.text.isEmpty, "no String of the PSK in the tree")
        #expect(lent.count == 1)
        #expect(lent.first?.0 == "PSK")
        #expect(lent.first?.1 == Array(Self.hex.utf8))
        // Other elements keep their text.
        #expect(root.children(named: "SessionIdentifier").first?.text == "s1")
    }

    @Test func libxml2ZeroesTheMemoryItFrees() throws {
        _ = try TcToken.parse(Self.document(psk: Self.hex))
        #expect(XMLTreeParser.wipesFreedMemory)
    }
}
