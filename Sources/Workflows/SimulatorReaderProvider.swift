import CardAccess

// Interim until the CardSimulator target lands.
public final class SimulatorReaderProvider: CardReaderProvider {
    public init() {}
    public func readers() throws -> [ReaderSnapshot] { [] }
    public func connect(reader: String) throws -> CardConnection { throw CardError.cardRemoved }
    public func waitForChange(timeout: Double) throws {}
    public func cancelWait() {}
}
