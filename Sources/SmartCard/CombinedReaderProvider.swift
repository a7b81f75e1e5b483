/// Several providers seen as one: the PC/SC readers and the in-process simulator.
public final class CombinedReaderProvider: CardReaderProvider {
    let providers: [CardReaderProvider]
    private var owner: [String: CardReaderProvider] = [:]

    public init(_ providers: [CardReaderProvider]) { self.providers = providers }

    public func readers() throws -> [ReaderSnapshot] {
        var all: [ReaderSnapshot] = []
        for provider in providers {
            for reader in try provider.readers() {
                owner[reader.name] = provider
                all.append(reader)
            }
        }
        return all
    }

    public func connect(reader: String, exclusive: Bool) throws -> CardConnection {
        if owner[reader] == nil { _ = try readers() }
        guard let provider = owner[reader] else { throw CardError.cardRemoved }
        return try provider.connect(reader: reader, exclusive: exclusive)
    }

    /// Waits on the first provider that can wait (PC/SC); the simulator never changes by itself.
    public func waitForChange(timeout: Double) throws {
        if let first = providers.first { try first.waitForChange(timeout: timeout) }
    }

    public func cancelWait() {
        for provider in providers { provider.cancelWait() }
    }
}
