import Faces
import LockedPages
import SDK
import SmartCard
import Testing
import Workflows

/// The JSON face's input buffers (issue 15): the PIN's line goes through locked buffers that are
/// zeroed once the line is taken, and arrives as a Secret.
@Suite struct StandardInputReaderTests {
    /// Hands over one line, then looks at the buffer it was given again on the next read.
    final class InspectingInput: LineInput, @unchecked Sendable {
        // Unchecked: only the reader thread calls `read`; the test looks after `done`.
        let isTerminal = false
        private let line: [UInt8]
        private var reads = 0
        private(set) var chunkLocked: Bool?
        private(set) var chunkZeroed = false
        let done = Condition()
        private(set) var finished = false

        init(_ line: String) { self.line = Array((line + "\n").utf8) }

        func read(into buffer: UnsafeMutableBufferPointer<UInt8>) -> Int {
            reads += 1
            if reads == 1 {
                for (i, byte) in line.enumerated() { buffer[i] = byte }
                return line.count
            }
            chunkZeroed = buffer.allSatisfy { $0 == 0 }
            chunkLocked = isLockedInRAM(UnsafeRawPointer(buffer.baseAddress!))
            done.lock()
            finished = true
            done.broadcast()
            done.unlock()
            return 0
        }
    }

    @Test func thePINsLineGoesThroughLockedZeroedBuffersIntoASecret() throws {
        let input = InspectingInput(#"{"cmd":"SET_PIN","value":"123456"}"#)
        let queue = CommandQueue(reply: { _ in })
        // SET_PIN is taken at ENTER_PIN only.
        queue.note(.enterPIN(reader: ReaderInfo(name: "R", keypad: false, card: .eID(CardInfo(retryCounter: 3)))))
        StandardInputReader(queue: queue, input: input, console: Console(sink: RecordingSink())).start()
        guard case .command(.setSecret(.pin, let value)) = queue.next(timeout: 30) else {
            Issue.record("no SET_PIN")
            return
        }
        #expect(value?.withBytes { $0 } == Array("123456".utf8))
        input.done.lock()
        while !input.finished { input.done.wait(seconds: 0.1) }
        input.done.unlock()
        #expect(input.chunkZeroed, "the read buffer is zeroed after the line was taken")
        if memoryLockAllowed && !sanitizerReplacesMlock {
            #expect(try #require(input.chunkLocked), "the read buffer is locked into RAM")
        }
    }
}
