import Testing

@testable import SDK

@Suite struct SDKMessageTests {
    let card = ReaderInfo(name: "NFC", attached: true, keypad: false, card: .eID(CardInfo(retryCounter: 3)))

    @Test func readerListMatchesTheDocumentation() {
        let list = SDKMessage.readerList([
            ReaderInfo(name: "Example reader 1 [SmartCard] (1234567) 01 00", keypad: true, card: .none), card,
        ])
        #expect(
            list.jsonLine == """
                {"msg":"READER_LIST","readers":[{"name":"Example reader 1 [SmartCard] (1234567) 01 00",\
                "insertable":false,"attached":true,"keypad":true,"card":null},{"name":"NFC","insertable":false,\
                "attached":true,"keypad":false,"card":{"inoperative":false,"deactivated":false,"retryCounter":3}}]}
                """)
        // AusweisApp2 1.26.2: `readers` at level 2 too, `reader` at level 1.
        #expect(list.jsonLine(level: 2).hasPrefix(#"{"msg":"READER_LIST","readers":["#))
        #expect(list.jsonLine(level: 1).hasPrefix(#"{"msg":"READER_LIST","reader":["#))
    }

    @Test func readerShapes() {
        #expect(
            SDKMessage.reader(card).jsonLine == """
                {"msg":"READER","name":"NFC","insertable":false,"attached":true,"keypad":false,"card":{"inoperative":false,\
                "deactivated":false,"retryCounter":3}}
                """)
        // A detached reader is only its name; the same at every level.
        for level in APILevel.available {
            #expect(
                SDKMessage.reader(ReaderInfo(name: "R", attached: false, card: .none)).jsonLine(level: level)
                    == #"{"msg":"READER","name":"R","attached":false}"#)
        }
        // An unknown card is an empty object at level 3, null below.
        let unknown = SDKMessage.reader(ReaderInfo(name: "R", card: .unknown))
        #expect(
            unknown.jsonLine
                == #"{"msg":"READER","name":"R","insertable":false,"attached":true,"keypad":false,"card":{}}"#)
        #expect(
            unknown.jsonLine(level: 2)
                == #"{"msg":"READER","name":"R","insertable":false,"attached":true,"keypad":false,"card":null}"#)
        #expect(unknown.jsonLine(level: 1) == unknown.jsonLine(level: 2))
        #expect(
            SDKMessage.readerRefused(error: "Name cannot be undefined").jsonLine
                == #"{"msg":"READER","error":"Name cannot be undefined"}"#)
    }

    @Test func enterMessagesCarryErrorAndReader() {
        #expect(
            SDKMessage.enterPIN(error: "You must provide 6 digits", reader: card).jsonLine == """
                {"msg":"ENTER_PIN","error":"You must provide 6 digits","reader":{"name":"NFC","insertable":false,\
                "attached":true,"keypad":false,"card":{"inoperative":false,"deactivated":false,"retryCounter":3}}}
                """)
        #expect(SDKMessage.enterNewPIN(reader: card).jsonLine.hasPrefix(#"{"msg":"ENTER_NEW_PIN","reader":{"#))
        #expect(SDKMessage.enterCAN(reader: card).jsonLine.hasPrefix(#"{"msg":"ENTER_CAN","reader":"#))
        #expect(SDKMessage.enterPUK(reader: card).jsonLine.hasPrefix(#"{"msg":"ENTER_PUK","reader":"#))
    }

    @Test func smallMessages() {
        #expect(SDKMessage.insertCard.jsonLine == #"{"msg":"INSERT_CARD"}"#)
        #expect(SDKMessage.changePIN(success: nil).jsonLine == #"{"msg":"CHANGE_PIN"}"#)
        #expect(SDKMessage.changePIN(success: true).jsonLine == #"{"msg":"CHANGE_PIN","success":true}"#)
        #expect(SDKMessage.badState(command: "SET_CAN").jsonLine == #"{"msg":"BAD_STATE","error":"SET_CAN"}"#)
        #expect(SDKMessage.unknownCommand("get_INFo").jsonLine == #"{"msg":"UNKNOWN_COMMAND","error":"get_INFo"}"#)
    }

    @Test func stringsAreEscaped() {
        let msg = SDKMessage.invalid(error: "quote \" backslash \\ newline \n tab \t bell \u{07} ü")
        #expect(msg.jsonLine == #"{"msg":"INVALID","error":"quote \" backslash \\ newline \n tab \t bell \u0007 ü"}"#)
    }
}

@Suite struct SDKCommandTests {
    func parse(_ s: String) -> SDKCommand.Parsed { SDKCommand.parse(Array(s.utf8)) }

    @Test func setCommandsCarryTheirValueAsASecret() throws {
        guard case .command(.setSecret(.pin, let value)) = parse(#"{"cmd":"SET_PIN","value":"123456"}"#) else {
            Issue.record("not SET_PIN")
            return
        }
        let secret = try #require(value)
        #expect(secret.isDigits(count: 6))
        guard case .command(.setSecret(.newPIN, let v2)) = parse(#"{"cmd":"SET_NEW_PIN","value":12}"#) else {
            Issue.record("not SET_NEW_PIN")
            return
        }
        #expect(v2 == nil)
        guard case .command(.setSecret(.can, nil)) = parse(#"{"cmd":"SET_CAN"}"#) else {
            Issue.record("not SET_CAN")
            return
        }
    }

    @Test func brokenInputIsInvalid() {
        for line in [#"{"cmd":"SET_PIN","value":"1234"#, "garbage", "", "[1,2]", #"{"value":"1"}"#, #"{"cmd":5}"#] {
            guard case .rejected(let message) = parse(line) else {
                Issue.record("accepted \(line)")
                continue
            }
            #expect(message.name == "INVALID", "for \(line)")
        }
    }

    @Test func anInvalidLineIsNeverQuoted() {
        for line in [#"{"cmd":"SET_PIN","value":"918273"#, #"{"cmd":"SET_PIN","value":918273x}"#, #"918273"#] {
            guard case .rejected(.invalid(let error)) = parse(line) else {
                Issue.record("not INVALID: \(line)")
                continue
            }
            #expect(!error.contains("918273") && !error.contains("9182"), "\(error)")
        }
    }

    @Test func shapesOfCommandMembers() {
        guard case .rejected(.invalid(error: "Command cannot be undefined")) = parse("[1,2]") else {
            Issue.record("an array is not a command")
            return
        }
        // AusweisApp2 1.26.2 and 2.5: a cmd that is not a non-empty string is undefined.
        for line in [#"{"cmd":null}"#, #"{"cmd":""}"#, #"{"cmd":5}"#, #"{"cmd":["GET_INFO"]}"#] {
            guard case .rejected(.invalid(error: "Command cannot be undefined")) = parse(line) else {
                Issue.record("not undefined: \(line)")
                continue
            }
        }
        guard case .command(.setSecret(.pin, nil)) = parse(#"{"cmd":"SET_PIN","value":null}"#) else {
            Issue.record("a null value is no value")
            return
        }
        guard
            case .command(.getReader(name: .value("Virtual PCD 00 00"))) = parse(
                #"{"name":"Virtual PCD 00 00","extra":{"a":[1,2]},"cmd":"GET_READER"}"#)
        else {
            Issue.record("members in any order, unknown members ignored")
            return
        }
        guard case .command(.getReader(name: .invalid)) = parse(#"{"cmd":"GET_READER","name":7}"#),
            case .command(.getReader(name: .undefined)) = parse(#"{"cmd":"GET_READER"}"#)
        else {
            Issue.record("a name that is not a string is invalid, a missing one undefined")
            return
        }
    }

    @Test(arguments: [
        ("null", "the line is not valid JSON"), ("true", "Command cannot be undefined"),
        ("1", "Command cannot be undefined"), (#""CANCEL""#, "Command cannot be undefined"),
        ("[]", "Command cannot be undefined"), ("{}", "Command cannot be undefined"),
        ("", "the line is not valid JSON"), ("  ", "the line is not valid JSON"),
        (#"{"cmd":"CANCEL"} x"#, "the line is not valid JSON"), (#"{"cmd":"CANCEL"}{}"#, "the line is not valid JSON"),
    ])
    func valuesThatAreNoCommand(line: String, error: String) {
        guard case .rejected(.invalid(let found)) = parse(line) else {
            Issue.record("not INVALID: \(line)")
            return
        }
        #expect(found == error, "\(line)")
    }

    /// What a lenient decoder let through and the strict parser refuses: the whole line is
    /// INVALID, even where the broken part is a member eid does not read.
    @Test(arguments: [
        #"{"cmd":"CANCEL","cmd":"GET_INFO"}"#, #"{"cmd":"GET_READER","name":"a","name":"b"}"#,
        #"{"cmd":"GET_READER","name":"\ud800"}"#, #"{"cmd":"GET_READER","name":"\udc00x"}"#,
        "\u{FEFF}{\"cmd\":\"CANCEL\"}", #"{"cmd":"CANCEL",}"#, #"{"cmd":"CANCEL","v":01}"#,
        #"{"cmd":"CANCEL","v":1.}"#, #"{"cmd":"CANCEL","v":1e999}"#, #"{"cmd":"CANCEL","v":[1,]}"#,
        #"{"cmd":"CANCEL","v":"\x"}"#, "{\"cmd\":\"GET_READER\",\"name\":\"a\u{01}\"}",
        "{\"cmd\":\"CANCEL\",\"v\":" + String(repeating: "[", count: 40) + String(repeating: "]", count: 40) + "}",
    ])
    func strictJSONOnly(line: String) {
        guard case .rejected(.invalid(error: "the line is not valid JSON")) = parse(line) else {
            Issue.record("not INVALID: \(line)")
            return
        }
    }

    @Test func invalidUTF8IsInvalid() {
        let line = Array(#"{"cmd":"GET_READER","name":"a"#.utf8) + [0xFF] + Array(#""}"#.utf8)
        guard case .rejected(.invalid(error: "the line is not valid JSON")) = SDKCommand.parse(line) else {
            Issue.record("not INVALID")
            return
        }
    }

    @Test func escapesInTheCommandName() {
        guard case .command(.cancel) = parse(#"{"cmd":"\u0043ANCEL"}"#) else {
            Issue.record("expected CANCEL")
            return
        }
        guard case .command(.getReader(name: .value("R 😀"))) = parse(#"{"cmd":"GET_READER","name":"R \ud83d\ude00"}"#)
        else {
            Issue.record("expected the name with its surrogate pair joined")
            return
        }
    }

    @Test func unknownNamesAreCaseSensitive() {
        guard case .rejected(.unknownCommand("get_INFo")) = parse(#"{"cmd":"get_INFo"}"#) else {
            Issue.record("expected UNKNOWN_COMMAND")
            return
        }
        guard case .command(.runAuth(tcTokenURL: .value("x"), _)) = parse(#"{"cmd":"RUN_AUTH","tcTokenURL":"x"}"#)
        else {
            Issue.record("expected RUN_AUTH")
            return
        }
        guard case .command(.cancel) = parse(#" { "cmd" : "CANCEL" } "#) else {
            Issue.record("expected CANCEL")
            return
        }
    }
}

/// GET_API_LEVEL, SET_API_LEVEL and API_LEVEL, as AusweisApp2 1.26.2 answers them (its answers
/// were recorded over its WebSocket: the same fields and error words).
@Suite struct SDKAPILevelTests {
    func command(_ line: String) -> SDKCommand? {
        if case .command(let command) = SDKCommand.parse(Array(line.utf8)) { return command }
        return nil
    }

    func request(_ line: String) -> APILevel.Request? {
        if case .setAPILevel(let request)? = command(line) { return request }
        return nil
    }

    @Test func levelsAreReadAsAusweisApp2ReadsThem() {
        if case .getAPILevel? = command(#"{"cmd":"GET_API_LEVEL"}"#) {} else { Issue.record("GET_API_LEVEL") }
        #expect(request(#"{"cmd":"SET_API_LEVEL","level":1}"#) == .level(1))
        #expect(request(#"{"cmd":"SET_API_LEVEL","level":2.0}"#) == .level(2))
        #expect(request(#"{"cmd":"SET_API_LEVEL","level":2.5}"#) == .fraction)
        #expect(request(#"{"cmd":"SET_API_LEVEL","level":"2"}"#) == .invalid)
        #expect(request(#"{"cmd":"SET_API_LEVEL","level":null}"#) == .invalid)
        #expect(request(#"{"cmd":"SET_API_LEVEL"}"#) == .undefined)
    }

    @Test func setAnswersWithTheCurrentLevelOrWhyNot() {
        #expect(APILevel.set(.level(1), current: 2).current == 1)
        #expect(APILevel.set(.level(1), current: 2).message.jsonLine == #"{"msg":"API_LEVEL","current":1}"#)
        let refused = [
            (APILevel.Request.level(4), "Unknown level"), (.level(0), "Unknown level"), (.fraction, "Unknown level"),
            (.invalid, "Invalid level"), (.undefined, "Level cannot be undefined"),
        ]
        for (request, error) in refused {
            let (message, current) = APILevel.set(request, current: 1)
            #expect(current == 1)
            #expect(message.jsonLine == #"{"msg":"API_LEVEL","error":"\#(error)","current":1}"#)
        }
        #expect(
            SDKMessage.apiLevel(error: nil, available: APILevel.available, current: APILevel.initial).jsonLine
                == #"{"msg":"API_LEVEL","available":[1,2,3],"current":3}"#)
        #expect(APILevel.set(.level(3), current: 1).message.jsonLine == #"{"msg":"API_LEVEL","current":3}"#)
    }
}
