import ArgumentParser
import Faces

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
        let face = ReadersFace(context: options.context(), json: options.json)
        try (watch ? face.watch() : face.list()).exitUnlessSuccess()
    }
}
