import ArgumentParser

struct ChangePIN: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "change-pin", abstract: "Change the PIN, or replace the transport PIN.")

    @OptionGroup var options: ReaderOptions

    func run() throws {}
}
