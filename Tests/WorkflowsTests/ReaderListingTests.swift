import Foundation
import SDK
import SmartCard
import Testing

@testable import Workflows

@Suite struct ReaderListingTests {
    @Test func cardRemovedBetweenListingAndReadingShowsNoCard() throws {
        let channel = FakeCardChannel(mseStatus: .success)
        channel.removed = true
        let readers = try ReaderListing(provider: OneReaderProvider(channel)).list()
        #expect(readers == [ReaderInfo(name: "Test", card: .none)])
    }

    @Test(arguments: [
        (StatusWord.success, CardPresence.eID(CardInfo(retryCounter: 3))),
        (StatusWord.retriesLeft(2), .eID(CardInfo(retryCounter: 2))),
        (StatusWord.retriesLeft(1), .eID(CardInfo(retryCounter: 1))),
        (StatusWord.retriesLeft(0), .eID(CardInfo(retryCounter: 0))),
        (StatusWord.deactivated, .eID(CardInfo(deactivated: true, retryCounter: -1))),
        (StatusWord.instructionNotSupported, .unknown),
    ])
    func mseStatusWordsGiveTheCardState(sw: StatusWord, expected: CardPresence) throws {
        let readers = try ReaderListing(provider: OneReaderProvider(FakeCardChannel(mseStatus: sw))).list()
        #expect(readers.first?.card == expected)
    }

    @Test(arguments: ["", "31", "3114300f0601", "0403010203", "3100", "3105300306012a"])
    func garbageCardAccessIsNotAnEIDCard(hex: String) throws {
        let channel = FakeCardChannel(mseStatus: .success)
        channel.cardAccess = [UInt8](hex: hex)!
        let readers = try ReaderListing(provider: OneReaderProvider(channel)).list()
        #expect(readers.first?.card == .unknown)
    }

    /// A card another program holds exclusively: present, unknown, and said to be in use; the
    /// provider (PC/SC) reports it as `CardError.cardInUse`.
    @Test func cardHeldByAnotherProgramIsShownInUse() throws {
        final class BusyProvider: CardReaderProvider {
            func readers() throws -> [ReaderSnapshot] { [ReaderSnapshot(name: "Busy", cardPresent: true)] }
            func connect(reader: String, exclusive: Bool) throws -> CardConnection { throw CardError.cardInUse }
            func waitForChange(timeout: Double) throws {}
            func cancelWait() {}
        }
        let entries = try ReaderListing(provider: BusyProvider()).entries()
        #expect(entries.map(\.info) == [ReaderInfo(name: "Busy", card: .unknown)])
        #expect(entries.first?.cardInUse == true)
    }

    /// The card leaves while its PIN state is read, the way eid-sim leaves vpcd: the reader
    /// fails the transfer of MSE:Set AT, and pcscd reports the card gone a moment later. That
    /// is no card, not a card of unknown kind (`{}`).
    @Test func cardThatLeavesDuringTheReadShowsNoCard() throws {
        let provider = VanishingCardProvider()
        let readers = try ReaderListing(provider: provider).list()
        #expect(readers == [ReaderInfo(name: "Vanishing", card: .none)])
        #expect(provider.looksAfterLeaving > provider.staleLooks, "waited for the reader to tell")
    }

    /// A card that fails the transfer and stays in the reader is still shown, as unknown.
    @Test func cardThatFailsAndStaysShowsUnknown() throws {
        let provider = VanishingCardProvider()
        provider.mode = .failsAndStays
        let readers = try ReaderListing(provider: provider).list()
        #expect(readers == [ReaderInfo(name: "Vanishing", card: .unknown)])
    }

    /// Watching: a card inserted and gone before its read ends is not told as a half card, and
    /// its removal is not told twice; the next card is told as it is.
    @Test func watchTellsNoHalfCardForACardThatLeavesDuringTheRead() throws {
        let provider = VanishingCardProvider()
        provider.present = false
        var messages: [SDKMessage] = []
        var looks = 0
        try ReaderListing(provider: provider).watch(
            send: { messages.append($0) }, poll: 0.01,
            shouldStop: {
                looks += 1
                switch looks {
                case 3: provider.insert()  // leaves during its read
                case 7:
                    provider.mode = .answers
                    provider.insert()  // stays
                default: break
                }
                return looks > 10
            })
        #expect(
            messages == [
                .reader(ReaderInfo(name: "Vanishing", card: .none)),
                .reader(ReaderInfo(name: "Vanishing", card: .eID(CardInfo(retryCounter: 3)))),
            ])
    }
}

/// One reader whose card, when `mode` is `.leaves`, goes in the middle of MSE:Set AT: the
/// transfer fails (`CardError.transportFailed`, not `cardRemoved`), and the reader still shows
/// the card for `staleLooks` more looks, as pcscd does until it polls the reader again.
final class VanishingCardProvider: CardReaderProvider, CardConnection {
    enum Mode { case leaves, failsAndStays, answers }
    var mode = Mode.leaves
    var present = true
    var events: UInt32 = 0
    let staleLooks = 2
    private(set) var looksAfterLeaving = 0
    private var left = false
    private let cardAccess = FakeCardChannel(mseStatus: .success).cardAccess

    func insert() {
        present = true
        left = false
        looksAfterLeaving = 0
        events += 1
    }

    func readers() throws -> [ReaderSnapshot] {
        if left && present {
            looksAfterLeaving += 1
            if looksAfterLeaving > staleLooks {
                present = false
                events += 1
            }
        }
        return [ReaderSnapshot(name: "Vanishing", cardPresent: present, cardEvents: events)]
    }

    func connect(reader: String, exclusive: Bool) throws -> CardConnection {
        guard present, !left else { throw CardError.cardRemoved }
        return self
    }

    func waitForChange(timeout: Double) throws { usleep(UInt32(min(timeout, 0.01) * 1_000_000)) }
    func cancelWait() {}

    var supportsExtendedLength: Bool { true }

    func transmit(_ command: CommandAPDU) throws -> ResponseAPDU {
        if left { throw CardError.transportFailed("the reader failed the transfer") }
        switch (command.ins, mode) {
        case (0xB0, _): return ResponseAPDU(data: cardAccess, statusWord: .success)
        case (_, .answers): return ResponseAPDU(statusWord: .success)
        case (_, .failsAndStays): throw CardError.transportFailed("the reader failed the transfer")
        case (_, .leaves):
            left = true
            throw CardError.transportFailed("the reader failed the transfer")
        }
    }

    func disconnect(resetCard: Bool) {}
}
