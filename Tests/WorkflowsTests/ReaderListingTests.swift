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
}
