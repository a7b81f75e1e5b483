import Foundation
import SmartCard
import Testing

@testable import CardSimulator

@Suite struct CardProfileTests {
    func decode(_ json: String) throws -> CardProfile {
        try CardProfile.decode(Data(json.utf8), source: "profile.json")
    }

    func message(_ json: String) -> String {
        do {
            _ = try decode(json)
            return "no error"
        } catch {
            return "\(error)"
        }
    }

    @Test func defaultsAreTheTestCard() throws {
        let profile = try decode("{}")
        #expect(profile == CardProfile())
        let state = PasswordState(profile: profile)
        #expect(state == PasswordState(pin: "123456", can: "500540", puk: "9876543210"))
        #expect(state.pinRetryCounter == 3 && state.pukUsesLeft == 10 && !state.transportPIN && !state.deactivated)
    }

    @Test func allFields() throws {
        let profile = try decode(
            """
            {"pin": "654321", "can": "123123", "puk": "0123456789", "pinRetries": 1, "transportPIN": false,
             "deactivated": true, "pukUsesLeft": 4, "cardAccess": "31 00"}
            """)
        #expect(
            profile
                == CardProfile(
                    pin: "654321", can: "123123", puk: "0123456789", pinRetries: 1, deactivated: true, pukUsesLeft: 4,
                    cardAccess: [0x31, 0x00]))
        #expect(try CardProfile.decode(profile.jsonData(), source: "x") == profile)
        let card = poweredCard(profile)
        #expect(exchange(card, "00b09c0000") == "31009000")
    }

    @Test func jsonListsTheFieldsInTheirDocumentedOrder() throws {
        let text = String(decoding: CardProfile(cardAccess: [0x31, 0x00]).jsonData(), as: UTF8.self)
        #expect(
            text == #"{"pin":"123456","can":"500540","puk":"9876543210","pinRetries":3,"transportPIN":false,"#
                + #""deactivated":false,"pukUsesLeft":10,"cardAccess":"3100"}"#)
        #expect(!String(decoding: CardProfile().jsonData(), as: UTF8.self).contains("cardAccess"))
    }

    @Test func integersMayBeWrittenWithFractionOrExponent() throws {
        #expect(try decode(#"{"pinRetries": 2.0}"#).pinRetries == 2)
        #expect(try decode(#"{"pinRetries": 1E0, "pukUsesLeft": -0}"#) == CardProfile(pinRetries: 1, pukUsesLeft: 0))
        #expect(
            message(#"{"pinRetries": 99999999999999999999}"#)
                == #"profile.json: field "pinRetries": must be an integer"#)
    }

    @Test func strictJSON() {
        let notJSON = "profile.json: not valid JSON; a profile is a JSON object such as {\"pin\": \"123456\"}"
        for json in [
            #"{"pin": "123456", "pin": "654321"}"#, #"{"pinRetries": 1} x"#, #"{"pinRetries": 1e400}"#, "",
            #"{"pinRetries": 1,}"#, #"{"can": "\ud800"}"#,
        ] {
            #expect(message(json) == notJSON, "\(json)")
        }
        #expect(message("null") == "profile.json: a profile must be a JSON object such as {\"pin\": \"123456\"}")
    }

    @Test func transportPINDefaultsTo12345() throws {
        let profile = try decode(#"{"transportPIN": true}"#)
        #expect(profile.effectivePIN == "12345")
        #expect(
            message(#"{"transportPIN": true, "pin": "123456"}"#)
                == #"profile.json: field "pin": must be 5 digits (a transport PIN)"#)
    }

    @Test(arguments: [
        ("not json", "profile.json: not valid JSON; a profile is a JSON object such as {\"pin\": \"123456\"}"),
        ("[1]", "profile.json: a profile must be a JSON object such as {\"pin\": \"123456\"}"),
        (#"{"pinRetries": 7}"#, #"profile.json: field "pinRetries": must be 0...3, found 7"#),
        (#"{"pinRetries": -1}"#, #"profile.json: field "pinRetries": must be 0...3, found -1"#),
        (#"{"pinRetries": "3"}"#, #"profile.json: field "pinRetries": must be an integer"#),
        (#"{"pinRetries": 2.5}"#, #"profile.json: field "pinRetries": must be an integer"#),
        (#"{"pinRetries": true}"#, #"profile.json: field "pinRetries": must be an integer"#),
        (#"{"pin": 123456}"#, #"profile.json: field "pin": must be a string of digits"#),
        (#"{"pin": "12345"}"#, #"profile.json: field "pin": must be 6 digits"#),
        (#"{"pin": "12345a"}"#, #"profile.json: field "pin": must be 6 digits"#),
        (#"{"can": "1234567"}"#, #"profile.json: field "can": must be 6 digits"#),
        (#"{"puk": "123"}"#, #"profile.json: field "puk": must be 10 digits"#),
        (#"{"transportPIN": 1}"#, #"profile.json: field "transportPIN": must be true or false"#),
        (#"{"deactivated": "yes"}"#, #"profile.json: field "deactivated": must be true or false"#),
        (#"{"pukUsesLeft": 11}"#, #"profile.json: field "pukUsesLeft": must be 0...10, found 11"#),
        (
            #"{"cardAccess": "3g"}"#,
            #"profile.json: field "cardAccess": must be hexadecimal (an even number of 0-9a-f)"#
        ),
        (
            #"{"cardAccess": "310"}"#,
            #"profile.json: field "cardAccess": must be hexadecimal (an even number of 0-9a-f)"#
        ),
        (
            #"{"pinRetrys": 3}"#,
            #"profile.json: unknown field "pinRetrys"; known fields: pin, can, puk, pinRetries, transportPIN, deactivated, pukUsesLeft, cardAccess, cvca, date, chipAuthenticationKey, dataGroups"#
        ),
    ])
    func brokenFilesNameFileAndField(json: String, expected: String) {
        #expect(message(json) == expected)
    }

    @Test func errorsNeverShowPasswords() {
        #expect(!message(#"{"pin": "99999x"}"#).contains("99999"))
        #expect(!message(#"{"puk": "55555"}"#).contains("55555"))
    }

    @Test func loadNamesTheFile() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("eid-sim-tests-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("card.json").path
        try Data(#"{"pinRetries": 9}"#.utf8).write(to: URL(fileURLWithPath: path))
        #expect(
            throws: CardProfileError.invalidValue(
                source: path, field: "pinRetries", requirement: "must be 0...3", found: "9")
        ) {
            try CardProfile.load(path: path)
        }
        try Data(#"{"pinRetries": 2}"#.utf8).write(to: URL(fileURLWithPath: path))
        #expect(try CardProfile.load(path: path).pinRetries == 2)
        do {
            _ = try CardProfile.load(path: dir.appendingPathComponent("missing.json").path)
            Issue.record("no error for a missing file")
        } catch {
            #expect("\(error)".hasPrefix(dir.appendingPathComponent("missing.json").path + ": cannot read the profile"))
        }
    }
}

@Suite struct CardProfileOverridesTests {
    @Test func optionsOverrideFields() throws {
        let file = CardProfile(pin: "111111", can: "222222", pinRetries: 1)
        let result = file.applying(.init(can: "333333", pinRetries: 2, deactivated: true, cardAccess: [0x31, 0x00]))
        #expect(
            result
                == CardProfile(
                    pin: "111111", can: "333333", pinRetries: 2, deactivated: true, cardAccess: [0x31, 0x00]))
        #expect(file.applying(.init()) == file)
    }

    @Test func transportPINOptionWithoutPINMeans12345() throws {
        let result = CardProfile(pin: "111111").applying(.init(transportPIN: true))
        #expect(result.effectivePIN == "12345")
        try result.validate(source: "options")
        #expect(CardProfile().applying(.init(pin: "54321", transportPIN: true)).effectivePIN == "54321")
        // A profile that is a transport PIN card keeps its transport PIN.
        let transport = CardProfile(pin: "54321", transportPIN: true)
        #expect(transport.applying(.init(transportPIN: true)).effectivePIN == "54321")
        // Switching the transport state off leaves a 5-digit PIN that validation rejects.
        #expect(throws: CardProfileError.self) {
            try transport.applying(.init(transportPIN: false)).validate(source: "options")
        }
    }
}
