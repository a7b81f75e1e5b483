import Testing

@testable import SDK

/// AUTH, ACCESS_RIGHTS and CERTIFICATE shaped as in the SDK reference (6.1, 6.3, 6.5), and the
/// authentication's commands (5.6, 5.8-5.10).
@Suite struct SDKAuthMessageTests {
    @Test func authStartAndResult() {
        #expect(SDKMessage.auth(result: nil, url: nil).jsonLine == #"{"msg":"AUTH"}"#)
        #expect(
            SDKMessage.auth(
                result: AuthResult(major: "http://www.bsi.bund.de/ecard/api/1.1/resultmajor#ok"),
                url: "https://test.governikus-eid.de/gov_autent/async?refID=_123456789"
            ).jsonLine == """
                {"msg":"AUTH","result":{"major":"http://www.bsi.bund.de/ecard/api/1.1/resultmajor#ok"},\
                "url":"https://test.governikus-eid.de/gov_autent/async?refID=_123456789"}
                """)
        let error = AuthResult(
            major: "http://www.bsi.bund.de/ecard/api/1.1/resultmajor#error",
            minor: "http://www.bsi.bund.de/ecard/api/1.1/resultminor/al/common#internalError", language: "en",
            description: "An internal error has occurred during processing.",
            message: "The connection to the ID card has been lost. The process was aborted.", reason: "Card_Removed")
        #expect(
            SDKMessage.auth(result: error, url: "https://x.example/?errID=1").jsonLine == """
                {"msg":"AUTH","result":{"major":"http://www.bsi.bund.de/ecard/api/1.1/resultmajor#error",\
                "minor":"http://www.bsi.bund.de/ecard/api/1.1/resultminor/al/common#internalError","language":"en",\
                "description":"An internal error has occurred during processing.",\
                "message":"The connection to the ID card has been lost. The process was aborted.",\
                "reason":"Card_Removed"},"url":"https://x.example/?errID=1"}
                """)
    }

    @Test func accessRightsAsTheReferenceShowsThem() {
        let info = AccessRightsInfo(
            error: "some optional error message",
            aux: AuxiliaryDataInfo(
                ageVerificationDate: "1999-07-20", requiredAge: "18", validityDate: "2017-07-20",
                communityId: "02760400110000"),
            effective: ["Address", "FamilyName", "GivenNames", "AgeVerification"],
            optional: ["GivenNames", "AgeVerification"], required: ["Address", "FamilyName"],
            transactionInfo: "this is an example")
        #expect(
            SDKMessage.accessRights(info).jsonLine == """
                {"msg":"ACCESS_RIGHTS","error":"some optional error message","aux":{"ageVerificationDate":"1999-07-20",\
                "requiredAge":"18","validityDate":"2017-07-20","communityId":"02760400110000"},"chat":{"effective":\
                ["Address","FamilyName","GivenNames","AgeVerification"],"optional":["GivenNames","AgeVerification"],\
                "required":["Address","FamilyName"]},"transactionInfo":"this is an example"}
                """)
        let minimal = AccessRightsInfo(effective: ["DocumentType"], optional: [], required: ["DocumentType"])
        #expect(
            SDKMessage.accessRights(minimal).jsonLine
                == #"{"msg":"ACCESS_RIGHTS","chat":{"effective":["DocumentType"],"optional":[],"required":["DocumentType"]}}"#
        )
    }

    @Test func certificateAsTheReferenceShowsIt() {
        let info = CertificateInfo(
            issuerName: "Governikus Test DVCA", issuerUrl: "http://www.governikus.de",
            subjectName: "Governikus GmbH & Co. KG", subjectUrl: "https://test.governikus-eid.de",
            termsOfUsage: "Anschrift:\t\r\nGovernikus", purpose: "Demonstration des eID-Service",
            effectiveDate: "2016-07-31", expirationDate: "2016-08-30")
        #expect(
            SDKMessage.certificate(info).jsonLine == """
                {"msg":"CERTIFICATE","description":{"issuerName":"Governikus Test DVCA",\
                "issuerUrl":"http://www.governikus.de","subjectName":"Governikus GmbH & Co. KG",\
                "subjectUrl":"https://test.governikus-eid.de","termsOfUsage":"Anschrift:\\t\\r\\nGovernikus",\
                "purpose":"Demonstration des eID-Service"},"validity":{"effectiveDate":"2016-07-31",\
                "expirationDate":"2016-08-30"}}
                """)
    }

    func parse(_ line: String) -> SDKCommand.Parsed { SDKCommand.parse(Array(line.utf8)) }

    @Test func authCommands() {
        guard
            case .command(
                .runAuth(tcTokenURL: .value("https://test.governikus-eid.de/DEMO"), options: WorkflowOptions())) =
                parse(#"{"cmd":"RUN_AUTH","tcTokenURL":"https://test.governikus-eid.de/DEMO"}"#)
        else {
            Issue.record("RUN_AUTH")
            return
        }
        guard case .command(.getAccessRights) = parse(#"{"cmd":"GET_ACCESS_RIGHTS"}"#),
            case .command(.getCertificate) = parse(#"{"cmd":"GET_CERTIFICATE"}"#),
            case .command(.setAccessRights(.entries([]))) = parse(#"{"cmd":"SET_ACCESS_RIGHTS","chat":[]}"#),
            case .command(.setAccessRights(.entries(["FamilyName"]))) = parse(
                #"{"cmd":"SET_ACCESS_RIGHTS","chat":["FamilyName"]}"#)
        else {
            Issue.record("GET_ACCESS_RIGHTS, GET_CERTIFICATE, SET_ACCESS_RIGHTS")
            return
        }
        // The chat as read; the workflow answers what cannot be taken with AusweisApp's errors.
        let chats: [(String, AccessRightsChoice)] = [
            (#"{"cmd":"SET_ACCESS_RIGHTS"}"#, .undefined), (#"{"cmd":"SET_ACCESS_RIGHTS","chat":"A"}"#, .notAList),
            (#"{"cmd":"SET_ACCESS_RIGHTS","chat":["A",1]}"#, .entries(["A", nil])),
        ]
        for (line, choice) in chats {
            guard case .command(.setAccessRights(let found)) = parse(line) else {
                Issue.record("\(line)")
                continue
            }
            #expect(found == choice, "\(line)")
        }
    }

    @Test func runAuthAndRunChangePINMembers() {
        let lines: [(String, SDKCommand?)] = [
            (#"{"cmd":"RUN_AUTH"}"#, .runAuth(tcTokenURL: .undefined, options: WorkflowOptions())),
            (#"{"cmd":"RUN_AUTH","tcTokenURL":5}"#, .runAuth(tcTokenURL: .invalid, options: WorkflowOptions())),
            (
                #"{"cmd":"RUN_AUTH","tcTokenURL":"x","status":false,"developerMode":true,"handleInterrupt":false,"messages":{"sessionStarted":"s"}}"#,
                .runAuth(
                    tcTokenURL: .value("x"),
                    options: WorkflowOptions(status: false, developerMode: true, handleInterrupt: false))
            ),
            // A member that is not a boolean counts as absent.
            (#"{"cmd":"RUN_CHANGE_PIN","status":"no"}"#, .runChangePIN(WorkflowOptions())),
            (#"{"cmd":"RUN_CHANGE_PIN","status":false}"#, .runChangePIN(WorkflowOptions(status: false))),
        ]
        for (line, expected) in lines {
            guard case .command(let command) = parse(line) else {
                Issue.record("not a command: \(line)")
                continue
            }
            switch (command, expected) {
            case (.runAuth(let url, let options), .runAuth(let url2, let options2)?):
                #expect(url == url2 && options == options2, "\(line)")
            case (.runChangePIN(let options), .runChangePIN(let options2)?):
                #expect(options == options2, "\(line)")
            default:
                Issue.record("\(line) read as \(command.name)")
            }
        }
    }
}
