import Foundation
import Glibc
import Testing

/// `eid serve` with a paired phone (`eid-sim --ifd`) as its only reader (PC/SC points at a socket nobody serves): an
/// SDK client's GET_READER_LIST lists the phone with its card, and a browser activation answered by the SDK client
/// runs the whole authentication through the phone, in basic mode (eid's PACE over IFDTransmit) and in PIN-pad
/// mode (PACE on the phone, SET_PIN without a value), ending in the 303 to the refresh address with ResultMajor=ok.
@Suite(
    .serialized,
    .enabled(
        if: ["eid-sim", "eid-testserver"].allSatisfy {
            FileManager.default.isExecutableFile(atPath: E2E.binDir.appendingPathComponent($0).path)
        },
        "needs the built eid, eid-sim and eid-testserver"))
struct ServePhoneTests {
    /// A phone paired with `eid pair --address …` (the code on standard input), in PIN-pad mode when `pinPad`.
    func pairedPhone(pinPad: Bool) throws -> RemoteReaderTests.Phone {
        let phone = try RemoteReaderTests.Phone(
            ["--pairing-code", "1234"] + (pinPad ? ["--ifd-pinpad", "--ifd-pin", "123456"] : []))
        let paired = try phone.eid(["pair", "--address", "wss://127.0.0.1:\(phone.port)"], stdin: "1234\n")
        try #require(paired.status == 0, "\(paired.stderr)")
        return phone
    }

    /// The SDK client's messages as JSON objects.
    static func objects(_ lines: [String]) -> [[String: Any]] {
        lines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    @Test(arguments: [false, true])
    func theSDKClientSeesThePhoneAndAnActivationRunsThroughIt(pinPad: Bool) throws {
        let server = try TestServerProcess()
        defer { server.stop() }
        let phone = try pairedPhone(pinPad: pinPad)
        let serve = try ServeProcess(["--test-pki", "--timeout", "20"], environment: phone.environment)
        defer { serve.stop() }

        // GET_READER_LIST outside a workflow: the phone, its card, its keypad.
        let lister = try SDKClientScript(serve.kernel, mode: "readers")
        let (listed, lines) = lister.finish(timeout: 30)
        #expect(listed == 0, "\(lines)")
        let list = try #require(Self.objects(lines).first { $0["msg"] as? String == "READER_LIST" }, "\(lines)")
        let readers = try #require(list["readers"] as? [[String: Any]])
        let reader = try #require(readers.first { $0["name"] as? String == "E2E Phone" }, "\(readers)")
        #expect(reader["attached"] as? Bool == true)
        #expect(reader["keypad"] as? Bool == pinPad)
        let card = try #require(reader["card"] as? [String: Any], "\(reader)")
        #expect(card["retryCounter"] as? Int == 3)

        // The next SDK client (the first has gone: one at a time) answers a browser activation, asking
        // GET_READER_LIST at ENTER_PIN while the workflow holds the phone.
        // Accepted once eid serve has seen the first go.
        let client = try #require(
            SDKClientScript.whenFree(serve.kernel, mode: "auth-list"), "eid serve took no second SDK client")
        let query = "\(server.origin)/tctoken".addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
        let browser = try HTTPExchange.curl("\(serve.origin)/eID-Client?tcTokenURL=\(query)", timeout: 90)
        #expect(browser.statuses == [102, 303], "\(serve.output)")
        let location = try #require(browser.headers["location"])
        #expect(location.hasPrefix("\(server.origin)/refresh?"))
        #expect(location.contains("ResultMajor=ok"))
        let (status, messages) = client.finish(timeout: 30)
        #expect(status == 0, "\(messages)")
        let asked = try #require(Self.objects(messages).first { $0["msg"] as? String == "ENTER_PIN" }, "\(messages)")
        let askedReader = try #require(asked["reader"] as? [String: Any])
        #expect(askedReader["name"] as? String == "E2E Phone")
        #expect(askedReader["keypad"] as? Bool == pinPad)
        let during = try #require(Self.objects(messages).first { $0["msg"] as? String == "READER_LIST" }, "\(messages)")
        let held = (during["readers"] as? [[String: Any]])?.first { $0["name"] as? String == "E2E Phone" }
        #expect(held?["keypad"] as? Bool == pinPad, "\(during)")
        #expect(held?["card"] is [String: Any], "\(during)")
        #expect(messages.last?.contains("resultmajor#ok") == true)
        #expect(try server.result(session: nil)?.hasPrefix(#"{"ok":true"#) == true)
        #expect(!serve.output.contains("123456"))
        #expect(!messages.joined().contains("123456"))
    }
}
