import SDK
import SmartCard
import Workflows

#if canImport(Glibc)
import Glibc
#endif

/// `eid readers`: the table (or READER_LIST), or with `watch` every change (READER messages)
/// until a stop signal.
public struct ReadersFace {
    let session: FaceSession
    var context: FaceContext { session.context }
    var json: Bool { session.json }

    public init(context: FaceContext, json: Bool) {
        session = FaceSession(context: context, json: json)
    }

    /// Lists once; returns the exit status.
    public func list() -> Int32 {
        let console = context.console
        let entries: [ReaderListing.Entry]
        do {
            entries = try ReaderListing(provider: try context.readers.open()).entries()
        } catch {
            return console.report(FailureReason(readerError: CardError(error)))
        }
        if json {
            console.json(.readerList(entries.map(\.info)))
        } else if entries.isEmpty {
            console.out("no card reader found")
            console.err(
                "hint: connect a reader (USB readers need the libccid driver) and check that pcscd runs, or try --simulator"
            )
        } else {
            CardText.table(entries).forEach(console.out)
        }
        return ExitStatus.success
    }

    /// Watches until SIGINT or SIGTERM; returns the exit status (0 when stopped so).
    public func watch() -> Int32 {
        let console = context.console
        let provider: any CardReaderProvider
        do { provider = try session.openReaders() } catch {
            return console.report(error.reason)
        }
        let cancelWait = CancelWait(provider)
        let stop = context.signals.watch([SIGINT, SIGTERM], onStop: { _ in cancelWait() }, onSuspend: nil)
        do {
            try ReaderListing(provider: provider).watch(
                send: { message in
                    if json {
                        console.json(message)
                    } else if case .reader(let r) = message {
                        console.out(CardText.change(r))
                    }
                }, shouldStop: { stop.isStopped })
        } catch {
            return console.report(FailureReason(readerError: CardError(error)))
        }
        return ExitStatus.success
    }
}
