import Foundation
import FuzzTargets
import SmartCard
import Testing

/// Replays every fuzz target's corpus (Tests/Fuzz/Corpus/<target>/: seeds from the project's
/// fixtures and transcripts, and every input a fuzzer crashed on) without fuzzing: an input
/// that crashes a target, or takes more than a second of CPU time (BoundedReplay), fails
/// `make test`.
@Suite struct FuzzCorpusTests {
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fuzz/Corpus")

    static func inputs(of target: FuzzTarget) throws -> [URL] {
        let folder = corpus.appendingPathComponent(target.rawValue)
        return try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
            .filter { !$0.lastPathComponent.hasPrefix(".") }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
    }

    @Test(arguments: FuzzTarget.allCases)
    func everyCorpusInputRunsThrough(target: FuzzTarget) throws {
        let inputs = try Self.inputs(of: target)
        #expect(!inputs.isEmpty, "no corpus for \(target.rawValue)")
        for input in inputs {
            let outcome = BoundedReplay.run(target, Array(try Data(contentsOf: input)))
            guard case .ran = outcome else {
                // A hanging input is left running on its thread; the next one would share the CPU with it.
                Issue.record("\(target.rawValue)/\(input.lastPathComponent): \(outcome)")
                break
            }
        }
    }

    /// The bound fails an input that computes too long, and passes one that ends in time.
    @Test func anInputThatRunsTooLongFails() {
        let stop = Locked(false)
        let slow = BoundedReplay.run(cpuBound: 0.05) {
            while !stop.withLock({ $0 }) {}  // computes until told to stop
        }
        stop.withLock { $0 = true }
        guard case .tooSlow(let seconds) = slow else {
            Issue.record("a loop without end must exceed the bound: \(slow)")
            return
        }
        #expect(seconds > 0.05)
        guard case .ran = BoundedReplay.run(.tlv, [0x04, 0x01, 0x00]) else {
            Issue.record("a short TLV input must end within the bound")
            return
        }
    }

    @Test func fieldsSplitAsTheyJoin() {
        let fields: [[UInt8]] = [[], [1, 2, 3], [UInt8](repeating: 7, count: 300)]
        #expect(FuzzFields.split(FuzzFields.join(fields)) == fields)
        // A last field cut short takes what is left; a lone length byte is dropped.
        #expect(FuzzFields.split([0, 5, 1, 2]) == [[1, 2]])
        #expect(FuzzFields.split([0]) == [])
    }
}

/// The harnesses reach what they fuzz: the card answers protected commands after the fixed PACE.
@Suite struct FuzzHarnessTests {
    @Test func theCardAnswersTheRecordedCommandsUnderSecureMessaging() throws {
        let transcript = try Data(
            contentsOf: FuzzCorpusTests.corpus.appendingPathComponent("card-simulator/transcript-read"))
        // READ BINARY of EF.CardSecurity, SELECT of the eID application: both 9000 (DG reads
        // are refused without TA: 6982).
        let answers = CardSimulatorFuzzing.answers(Array(transcript))
        #expect(answers.prefix(2) == [.success, .success])
        #expect(answers.dropFirst(2).allSatisfy { $0 == .securityStatusNotSatisfied })
        // The same input again starts from the same card state.
        #expect(CardSimulatorFuzzing.answers(Array(transcript)) == answers)
    }

    /// With the harness's EXTERNAL AUTHENTICATE and Chip Authentication, the fuzzer gets past TA
    /// and CA: the data groups are read under the CA keys.
    @Test func theHarnessSignsAndRunsCASoThatDataGroupsAreRead() throws {
        let answers = CardSimulatorFuzzing.answers(try CardSimulatorTerminal.eacSeed())
        // MSE:Set DST, PSO, MSE:Set DST, PSO, MSE:Set AT, GET CHALLENGE, EXTERNAL AUTHENTICATE,
        // CA, SELECT, READ BINARY DG1 and DG4.
        #expect(Array(answers.prefix(11)) == [StatusWord?](repeating: .success, count: 11))
        // With a made-up signature instead TA fails (6300) and DG1 is refused (6982).
        let wrong = try [0x00] + CommandAPDU.externalAuthenticate(signature: [UInt8](repeating: 1, count: 64)).bytes
        let unsigned = FuzzFields.join(
            FuzzFields.split(try CardSimulatorTerminal.eacSeed()).map {
                $0 == [CardSimulatorFuzzing.signedExternalAuthenticate] ? wrong : $0
            })
        let refused = CardSimulatorFuzzing.answers(unsigned)
        #expect(refused.count == answers.count)
        #expect(refused[6] == StatusWord(rawValue: 0x6300) && refused[9] == .securityStatusNotSatisfied)
    }

    /// The placeholder stands for the server's MessageID, so the recorded messages get past
    /// StartPAOS (and InitializeFramework) and EAC1 to EAC2, whose made-up answer is refused.
    @Test(arguments: [
        ("client-start-eac1", ["waitingForEAC1Output", "waitingForEAC2Output"]),
        (
            "initframework-client-all",
            ["waitingForInitializeFrameworkResponse", "waitingForEAC1Output", "waitingForEAC2Output", "finished"]
        ),
        ("eac-additional-client-all", ["waitingForEAC1Output", "waitingForEAC2Challenge", "finished"]),
    ])
    func theServerSessionFollowsTheRecordedMessages(seed: String, expected: [String]) throws {
        let input = try Data(contentsOf: FuzzCorpusTests.corpus.appendingPathComponent("server-session/\(seed)"))
        let states = ServerSessionFuzzing.states(Array(input)).map(\.rawValue)
        #expect(Array(states.prefix(expected.count)) == expected)
    }
}
