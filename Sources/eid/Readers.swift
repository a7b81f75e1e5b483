import ArgumentParser
import SDK
import SmartCard
import Workflows

struct Readers: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List card readers, the card in each and its PIN state.",
        discussion: """
            The PIN state is read without PACE and without any PIN: EF.CardAccess tells whether \
            the card is an eID card, MSE:Set AT tells how many PIN attempts are left or that the \
            eID function is deactivated. With --json the output is one READER_LIST message.
            """
    )

    @OptionGroup var options: ReaderOptions

    @Flag(help: "Keep running and report every reader or card change (READER messages) until Ctrl-C.")
    var watch = false

    func run() throws {
        let provider = try options.openProvider()
        let listing = ReaderListing(provider: provider)
        if watch {
            try runWatch(listing, provider: provider)
            return
        }
        let readers: [ReaderListing.Entry]
        do {
            readers = try listing.entries()
        } catch let error as CardError {
            throw FailureReason(readerError: error).exit()
        }
        if options.json {
            Console.shared.json(.readerList(readers.map(\.info)))
        } else if readers.isEmpty {
            Console.shared.out("no card reader found")
            Console.shared.err(
                "hint: connect a reader (USB readers need the libccid driver) and check that pcscd runs, or try --simulator"
            )
        } else {
            CardText.table(readers).forEach(Console.shared.out)
        }
    }

    private func runWatch(_ listing: ReaderListing, provider: CardReaderProvider) throws {
        let stop = StopSignal { _ in provider.cancelWait() }
        do {
            try listing.watch(
                send: { message in
                    if options.json {
                        Console.shared.json(message)
                    } else if case .reader(let r) = message {
                        Console.shared.out(CardText.change(r))
                    }
                }, shouldStop: { stop.isStopped })
        } catch let error as CardError {
            throw FailureReason(readerError: error).exit()
        }
    }
}
