import SmartCard
import Testing

@testable import Online

/// The variants real servers send (docs/protocol.md, "PAOS namespaces" to "dss:Result"), from Fixtures/.
@Suite struct PAOSFixtureTests {
    static func envelope(_ name: String) throws -> PAOSEnvelope {
        try PAOSEnvelope.parse(try OnlineFixture.bytes(name))
    }

    @Test func governikusEAC1WithCorrelationHeaderAndUnprefixedType() throws {
        let envelope = try Self.envelope("DIDAuthenticateEAC1_governikus")
        #expect(envelope.messageID == nil, "sb:Correlation is ignored")
        guard case .didAuthenticate(let message) = envelope.message, case .eac1(let input) = message.data else {
            Issue.record("not EAC1: \(envelope.message.kind)")
            return
        }
        #expect(message.didName == "PIN")
        #expect(message.protocolIdentifier == DIDAuthenticate.eacProtocol)
        #expect(message.connectionHandle?.ifdName == "Some Reader 00")
        #expect(message.connectionHandle?.slotIndex == 0)
        #expect(message.connectionHandle?.cardApplication == ConnectionHandle.eIDApplication)
        #expect(input.certificates.count == 2)
        #expect(
            input.certificates[1].prefix(4) == [0x7F, 0x21, 0x82, 0x01],
            "white space around hex trimmed, lower case read")
        #expect(input.requiredCHAT == [UInt8](hex: "7F4C12060904007F00070301020253050001137C05"))
        #expect(input.optionalCHAT?.count == 21)
        #expect(input.authenticatedAuxiliaryData?.first == 0x67)
        #expect(input.transactionInfo == "Order 4711 & more")
        #expect(input.acceptedEIDTypes.isEmpty)
        #expect(envelope.message.kind == .didAuthenticateEAC1)
    }

    @Test func prefixedEAC1WithPerChildNamespacesAndEmptyCHAT() throws {
        let envelope = try Self.envelope("DIDAuthenticateEAC1_prefixed")
        #expect(envelope.messageID == "urn:uuid:2d8b8a7e-5d0a-4d4b-8c57-b1b2b3b4b5b6")
        #expect(envelope.relatesTo == "urn:uuid:1f2e3d4c-0000-4000-8000-00000000c1c1")
        guard case .didAuthenticate(let message) = envelope.message, case .eac1(let input) = message.data else {
            Issue.record("not EAC1")
            return
        }
        #expect(input.requiredCHAT == nil && input.optionalCHAT == nil, "empty and missing CHATs are legal")
        #expect(input.transactionInfo == "")
        #expect(input.acceptedEIDTypes == ["CardCertified", "SECertified"])
        #expect(message.connectionHandle?.slotHandle == [0x00])
    }

    @Test func eac2SkipsUnknownChildrenAndReadsLowerCaseHex() throws {
        let envelope = try Self.envelope("DIDAuthenticateEAC2")
        guard case .didAuthenticate(let message) = envelope.message, case .eac2(let input) = message.data else {
            Issue.record("not EAC2")
            return
        }
        #expect(input.certificates.isEmpty)
        #expect(input.ephemeralPublicKey.count == 65 && input.ephemeralPublicKey.first == 0x04)
        #expect(input.signature?.count == 64)
        let bare = try Self.envelope("DIDAuthenticateEAC2_noSignature")
        guard case .didAuthenticate(let second) = bare.message, case .eac2(let noSignature) = second.data else {
            Issue.record("not EAC2")
            return
        }
        #expect(noSignature.signature == nil)
    }

    @Test func eacAdditionalInputWithTheShortProtocol() throws {
        let envelope = try Self.envelope("DIDAuthenticateEACAdditionalInput")
        guard case .didAuthenticate(let message) = envelope.message, case .eacAdditional(let input) = message.data
        else {
            Issue.record("not EACAdditionalInput")
            return
        }
        #expect(message.protocolIdentifier == "urn:oid:1.3.162.15480.3.0.14")
        #expect(input.signature.count == 64)
    }

    @Test func initializeFramework() throws {
        let envelope = try Self.envelope("InitializeFramework")
        #expect(envelope.message == .initializeFramework(InitializeFramework()))
        #expect(envelope.messageID == "urn:uuid:11111111-2222-4333-8444-555555555555")
        #expect(envelope.answers(messageID: "urn:uuid:66666666-7777-4888-9999-000000000000"))
        #expect(!envelope.answers(messageID: "urn:uuid:other"))
    }

    @Test func transmitWithStatusCodesAndPaddedHex() throws {
        let envelope = try Self.envelope("Transmit")
        #expect(envelope.messageID == "urn:uuid:dddddddd-1111-4222-8333-444444444444")
        guard case .transmit(let transmit) = envelope.message else {
            Issue.record("not Transmit")
            return
        }
        #expect(transmit.requestID == "r1")
        #expect(transmit.slotHandle?.count == 36)
        #expect(transmit.inputAPDUs.count == 3)
        #expect(transmit.inputAPDUs[0].acceptableStatusCodes.isEmpty)
        #expect(transmit.inputAPDUs[0].accepts(response: [0x6A, 0x82]), "no codes: anything goes on")
        #expect(transmit.inputAPDUs[1].acceptableStatusCodes == [[0x90, 0x00]])
        #expect(!transmit.inputAPDUs[1].accepts(response: [0x01, 0x63, 0xC2]))
        #expect(transmit.inputAPDUs[2].inputAPDU.prefix(4) == [0x0C, 0xB0, 0x81, 0x00])
        #expect(transmit.inputAPDUs[2].acceptableStatusCodes == [[0x90], [0x62, 0x82]])
        #expect(transmit.inputAPDUs[2].accepts(response: [0xAA, 0x90, 0x01]), "90 matches every 90xx")
        #expect(!transmit.inputAPDUs[2].accepts(response: [0x6A, 0x82]))
    }

    @Test func startPAOSResponseWithRenumberedPrefixes() throws {
        let envelope = try Self.envelope("StartPAOSResponse_error_prefixes")
        #expect(envelope.messageID == "urn:uuid:9f0e1d2c3b4a59687766554433221100")
        guard case .startPAOSResponse(let response) = envelope.message else {
            Issue.record("not StartPAOSResponse")
            return
        }
        #expect(response.result.major == .error)
        #expect(response.result.minor == .known(.timeout))
        #expect(response.result.message == "The client did not answer in time")
        #expect(response.result.messageLanguage == "en")
        #expect(response.result.ecardAPIResult == .error(.timeout))
    }

    @Test func startPAOSResponseOkAndOtherSpellings() throws {
        let ok = try Self.envelope("StartPAOSResponse_ok")
        #expect(ok.message == .startPAOSResponse(StartPAOSResponse(result: .ok)))
        #expect(ok.relatesTo == "urn:uuid:eeeeeeee-1111-4222-8333-444444444444")
        let warning = try Self.envelope("StartPAOSResponse_openecardSpellings")
        guard case .startPAOSResponse(let response) = warning.message else {
            Issue.record("not StartPAOSResponse")
            return
        }
        #expect(response.result.major == .warning, "white space around the URI trimmed")
        #expect(response.result.minor == .known(.ageVerificationFailedWarning), "sal/EAC read as sal/mEAC")
        let other = try Self.envelope("StartPAOSResponse_unrecognizedMinor")
        guard case .startPAOSResponse(let unknown) = other.message else {
            Issue.record("not StartPAOSResponse")
            return
        }
        #expect(
            unknown.result.minor
                == .unrecognized("http://www.bsi.bund.de/ecard/api/1.1/resultminor/sal#eacDataNotAvailable"))
        #expect(unknown.result.ecardAPIResult == ECardAPIResult(major: .error))
    }

    @Test func anotherClientsStartPAOSAndEAC1Output() throws {
        let start = try Self.envelope("StartPAOS_openecard")
        guard case .startPAOS(let message) = start.message else {
            Issue.record("not StartPAOS")
            return
        }
        #expect(message.sessionIdentifier == "4e6a761c-1224-46ed-9798-ac1972faf909")
        #expect(message.connectionHandles == [.eID])
        #expect(message.userAgent?.name == "Open eCard" && message.userAgent?.versionMinor == 3)
        #expect(message.supportedAPIVersions == [.ecardAPI115])
        #expect(message.supportedDIDProtocols == ["urn:oid:1.3.162.15480.3.0.14"])
        #expect(message.profile == PAOSNamespace.profile)
        #expect(start.relatesTo == nil)

        let eac1 = try Self.envelope("DIDAuthenticateResponse_EAC1_otherClient")
        guard case .didAuthenticateResponse(let response) = eac1.message, case .eac1(let output) = response.data else {
            Issue.record("not EAC1 output")
            return
        }
        #expect(response.result == .ok)
        #expect(output.retryCounter == 3)
        #expect(output.certificationAuthorityReferences == ["DETESTeID00005", "DETESTeID00004"])
        #expect(output.challenge == [1, 2, 3, 4, 5, 6, 7, 8])
        #expect(output.idPICC?.count == 32)
        #expect(output.chat?.prefix(2) == [0x7F, 0x4C])
    }

    @Test func aSOAPFaultIsReportedWithItsCode() throws {
        #expect(throws: PAOSError.soapFault(code: "soap:Server")) { try Self.envelope("soapFault") }
    }
}
