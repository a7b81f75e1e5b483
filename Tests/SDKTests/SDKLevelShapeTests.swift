import Testing

@testable import SDK

/// The members that differ by API level: level 3 as AusweisApp 2.5 documents them, levels 1 and 2
/// as AusweisApp2 1.26.2 sends them.
@Suite struct SDKLevelShapeTests {
    @Test func infoCarriesAusweisAppAtLevel3Only() {
        let info = SDKMessage.info(VersionInfo(implementationVersion: "1.0"))
        #expect(info.jsonLine.hasSuffix(#""Specification-Version":"1.4"},"AusweisApp":"UNKNOWN"}"#))
        for level in [1, 2] {
            #expect(info.jsonLine(level: level).hasSuffix(#""Specification-Version":"1.4"}}"#), "level \(level)")
        }
    }

    @Test func changePINReasonOnFailureAtLevel3Only() {
        let failed = SDKMessage.changePIN(success: false, reason: "Card_Removed")
        #expect(failed.jsonLine == #"{"msg":"CHANGE_PIN","success":false,"reason":"Card_Removed"}"#)
        #expect(failed.jsonLine(level: 2) == #"{"msg":"CHANGE_PIN","success":false}"#)
        #expect(failed.jsonLine(level: 1) == #"{"msg":"CHANGE_PIN","success":false}"#)
        #expect(SDKMessage.changePIN(success: true).jsonLine == #"{"msg":"CHANGE_PIN","success":true}"#)
        #expect(SDKMessage.changePIN(success: nil).jsonLine == #"{"msg":"CHANGE_PIN"}"#)
    }

    @Test func statusWithoutAWorkflowIsAllNull() {
        #expect(
            SDKMessage.status(workflow: nil, progress: nil, state: nil).jsonLine
                == #"{"msg":"STATUS","workflow":null,"progress":null,"state":null}"#)
        #expect(
            SDKMessage.status(workflow: "AUTH", progress: 25, state: "ACCESS_RIGHTS").jsonLine
                == #"{"msg":"STATUS","workflow":"AUTH","progress":25,"state":"ACCESS_RIGHTS"}"#)
    }

    @Test func authErrorWhenRunAuthIsRefused() {
        #expect(
            SDKMessage.authRefused(error: "tcTokenURL cannot be undefined").jsonLine
                == #"{"msg":"AUTH","error":"tcTokenURL cannot be undefined"}"#)
    }

    @Test func newCommandsAreRead() {
        func parse(_ line: String) -> SDKCommand? {
            if case .command(let command) = SDKCommand.parse(Array(line.utf8)) { return command }
            return nil
        }
        #expect(parse(#"{"cmd":"GET_STATUS"}"#)?.name == "GET_STATUS")
        #expect(parse(#"{"cmd":"INTERRUPT"}"#)?.name == "INTERRUPT")
        #expect(parse(#"{"cmd":"CONTINUE"}"#)?.name == "CONTINUE")
        guard case .setCard(name: .value("Simulator"))? = parse(#"{"cmd":"SET_CARD","name":"Simulator"}"#),
            case .setCard(name: .undefined)? = parse(#"{"cmd":"SET_CARD"}"#)
        else {
            Issue.record("SET_CARD's name")
            return
        }
    }
}
