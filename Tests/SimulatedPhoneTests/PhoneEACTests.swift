import CardSimulator
import EAC
import EIDCrypto
import OrderedJSON
import SmartCard
import TestPKI
import Testing

@testable import SimulatedPhone

/// The eID client's commands as a `CardChannel` over the test's IFD client: each APDU one IFDTransmit.
final class PhoneTransmitChannel: CardChannel {
    let client: PhoneClient
    let slot: String

    init(client: PhoneClient, slot: String) {
        self.client = client
        self.slot = slot
    }

    var supportsExtendedLength: Bool { true }

    func transmit(_ command: CommandAPDU) throws -> ResponseAPDU {
        guard let reply = client.transmit(slot, command.bytes), reply.isOK, let bytes = reply.hex("ResponseAPDU")
        else { throw CardError.cardRemoved }
        return try ResponseAPDU(bytes: bytes)
    }
}

/// An online authentication's card side through a phone in PIN-pad mode, as AusweisApp's desktop would run
/// it: PACE with a CHAT on the phone, Terminal Authentication and Chip Authentication as plain IFDTransmit
/// commands that the phone protects, then the eID server's own secure messaging (CA keys) passed through
/// unchanged once the phone has given up its own.
@Suite struct PhoneEACTests {
    @Test func terminalAndChipAuthenticationThroughThePhoneThenTheServersSecureMessaging() throws {
        let terminal = try TestCertificateAuthority.project.issueTerminal()
        let client = PhoneClient(pinPad: true)
        _ = client.establish()
        let slot = try #require(client.connect())
        let chat = terminal.terminal.certificate.body.chat.encoded
        let input = PhonePACEInput(passwordType: .pin, chat: chat, certificateDescription: [])
        let pace = try #require(
            client.send(
                "IFDEstablishPACEChannel",
                [("SlotHandle", .string(slot)), ("InputData", .string(input.bytes.hexString))]
            )
            .first)
        #expect(pace["ResultCode"] == .string("00000000"))
        let output = try #require(pace.hex("OutputData"))
        let fields = try #require(PhonePINPadTests.fields(output))
        let car = String(
            decoding: output[(4 + fields.cardAccess.count + 1)...].prefix(Int(output[4 + fields.cardAccess.count])),
            as: UTF8.self)
        #expect(car == terminal.cvca.body.holderReference)

        let channel = PhoneTransmitChannel(client: client, slot: slot)
        let selection = try ChipAuthentication.select(
            from: try PassiveAuthentication.verify(
                try PassiveAuthentication.readCardSecurity(channel), csca: SimulatorTestPKI.csca))
        let server = try ECKeyPair.generate(group: selection.publicKey.group)
        let ta = TerminalAuthentication(channel: channel)
        try ta.importCertificates(terminal.chain, cardTrustPoints: [car])
        try ta.authenticate(
            terminal: terminal.terminal.certificate, idPICC: fields.idICC, challenge: try ta.getChallenge(),
            ephemeralKey: server.publicKey, auxiliaryData: nil,
            signer: KeyTerminalSigner(privateKey: terminal.terminal.keyPair.privateKey, algorithm: .ecdsaSHA256))
        let answer = try ChipAuthentication(channel: channel).runWithServerKey(
            selection: selection, serverKey: server.publicKey)
        #expect(client.reader.hasSecureMessaging)

        // The eID server's secure messaging under the CA keys: protected commands, forwarded as they are.
        let keys = try ChipAuthentication.terminalKeys(
            protocol: selection.protocol, chipKey: selection.publicKey, ephemeralKey: server, nonce: answer.nonce,
            token: answer.token)
        let serverChannel = SecureMessaging(wrapping: channel, keys: keys.sessionKeys)
        let select = try serverChannel.transmit(try CommandAPDU.selectApplication(EIDFile.eIDApplicationID))
        #expect(select.statusWord == .success)
        let dg4 = try serverChannel.readFile(shortFileID: 0x04)
        #expect(!client.reader.hasSecureMessaging)
        #expect(dg4.first == 0x64)  // DG4, given names
    }
}
