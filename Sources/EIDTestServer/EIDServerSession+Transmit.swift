import EAC
import Online
import SmartCard

/// The Transmit rounds (docs/protocol.md, "Transmit rounds"): SELECT of the eID application and a VERIFY per
/// authenticated auxiliary datum the CHAT allows, then READ BINARY of every data group the
/// effective CHAT grants that has an SDK name; one APDU per Transmit for `transmit_single`, all
/// in one for `transmit_batch`; a read the card refuses second in the reads for `transmit_stop`.
extension EIDServerSession {
    func transmitPlan() -> [[ServerCardCommand]] {
        let granted = (effectiveCHAT?.accessRights ?? []).intersection(terminal.grantableRights)
        var checks: [ServerCardCommand] = [.selectEIDApplication]
        if configuration.faults.contains(.transmitChangePIN) { checks.append(.changePIN(ServerFault.changedPIN)) }
        for element in auxiliaryData?.elements ?? [] {
            switch element {
            case .ageVerification where granted.contains(.ageVerification): checks.append(.verify(element))
            case .communityID where granted.contains(.communityIDVerification): checks.append(.verify(element))
            case .documentValidity: checks.append(.verify(element))
            default: break
            }
        }
        let reads = granted.compactMap { right -> Int? in
            guard right.rawValue < AccessRight.writeDG22.rawValue, let group = right.dataGroup,
                EIDAttribute.name(dataGroup: group) != nil
            else { return nil }
            return group
        }.sorted().map(ServerCardCommand.readDataGroup)
        var readBatch = reads
        if configuration.faults.contains(.transmitStop),
            let ungranted = (1...21).first(where: { group in
                !granted.contains { $0.dataGroup == group && $0.rawValue < AccessRight.writeDG22.rawValue }
            })
        {
            readBatch.insert(.readUngranted(ungranted), at: min(1, readBatch.count))
        }
        let batches = [checks, readBatch].filter { !$0.isEmpty }
        if configuration.faults.contains(.transmitSingle) { return batches.joined().map { [$0] } }
        if configuration.faults.contains(.transmitBatch) { return [Array(batches.joined())] }
        return batches
    }

    /// Whether the Transmits give AcceptableStatusCode as first bytes alone (`transmit_status_prefix`).
    var acceptsStatusPrefixes: Bool { configuration.faults.contains(.transmitStatusPrefix) }

    /// The next Transmit, or StartPAOSResponse when everything was read.
    mutating func nextTransmit(relatesTo: String?) throws(SessionFailure) -> PAOSReply {
        guard !pendingBatches.isEmpty, let secure = secureMessaging else {
            if configuration.faults.contains(.finalError) { return fail(.injected(.finalError), relatesTo: relatesTo) }
            finish(
                SessionResult(ok: true, read: read, verified: verified, passiveAuthentication: passiveAuthentication))
            return reply(.startPAOSResponse(StartPAOSResponse(result: .ok)), relatesTo: relatesTo)
        }
        let batch = pendingBatches.removeFirst()
        var protected: [CommandAPDU]
        do { protected = try secure.protect(batch.map { try $0.apdu }) } catch { throw .secureMessagingFailed }
        if configuration.faults.contains(.transmitBadMAC), transmitResponses == 0, !protected[0].data.isEmpty {
            let first = protected[0]
            var data = first.data
            data[data.count - 1] ^= 0xFF
            guard
                let tampered = try? CommandAPDU(
                    cla: first.cla, ins: first.ins, p1: first.p1, p2: first.p2, data: data, ne: first.ne)
            else { throw .secureMessagingFailed }
            protected[0] = tampered
        }
        sentBatch = batch
        state = .waitingForTransmitResponse
        let infos = zip(batch, protected).map { command, apdu in
            Transmit.InputAPDUInfo(
                apdu.bytes, acceptableStatusCodes: command.acceptableStatusCodes(prefixes: acceptsStatusPrefixes))
        }
        return reply(.transmit(Transmit(inputAPDUs: infos)), relatesTo: relatesTo)
    }

    /// Unprotects the responses (every MAC checked) and takes what they say: the selection, each
    /// verification's pass or fail, each data group's value. A batch cut short must end with
    /// the response the client stopped at: the first whose status word the command's
    /// AcceptableStatusCode does not accept, and a client must stop there. When that is the
    /// planned refusal of `transmit_stop`, the commands after it come again in the next Transmit
    /// and the result is true.
    @discardableResult
    mutating func take(_ response: TransmitResponse) throws(SessionFailure) -> Bool {
        transmitResponses += 1
        guard !response.outputAPDUs.isEmpty, response.outputAPDUs.count <= sentBatch.count,
            var secure = secureMessaging
        else { throw .malformedTransmitResponse }
        let plain: [ResponseAPDU]
        do {
            let responses = try response.outputAPDUs.map { try ResponseAPDU(bytes: $0) }
            plain = try secure.unprotect(responses)
        } catch { throw .secureMessagingFailed }
        secureMessaging = secure
        for (command, answer) in zip(sentBatch, plain) {
            let sw = answer.statusWord
            switch command {
            case .selectEIDApplication:
                guard sw == .success else { throw .cardRefused(command: command.name, sw) }
            case .verify(let element):
                guard sw == .success || sw == .authenticationFailed else {
                    throw .cardRefused(command: command.name, sw)
                }
                verified.append(
                    SessionResult.Verification(
                        name: ServerCardCommand.verificationName(element), passed: sw == .success))
            case .changePIN:
                guard sw == .success else { throw .cardRefused(command: command.name, sw) }
            case .readUngranted:
                guard !ServerCardCommand.accepts(sw, codes: command.acceptableStatusCodes) else {
                    throw .cardRefused(command: command.name, sw)
                }
            case .readDataGroup(let number):
                guard sw == .success || sw.rawValue == 0x6282 else { throw .cardRefused(command: command.name, sw) }
                if let name = EIDAttribute.name(dataGroup: number) {
                    let value =
                        EIDAttribute.value(dataGroup: number, der: answer.data) ?? .string(answer.data.hexString)
                    read.append(SessionResult.Attribute(name: name, value: value))
                }
            }
        }
        let stop = plain.indices.first { index in
            !ServerCardCommand.accepts(
                plain[index].statusWord, codes: sentBatch[index].acceptableStatusCodes(prefixes: acceptsStatusPrefixes))
        }
        guard let stop else {
            guard plain.count == sentBatch.count else { throw .malformedTransmitResponse }
            return false
        }
        guard plain.count == stop + 1 else { throw .transmitNotStopped(command: sentBatch[stop].name) }
        guard case .readUngranted = sentBatch[stop] else { return false }
        let rest = Array(sentBatch[(stop + 1)...])
        if !rest.isEmpty { pendingBatches.insert(rest, at: 0) }
        return true
    }
}
