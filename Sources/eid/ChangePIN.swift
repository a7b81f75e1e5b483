import ArgumentParser
import CardSimulator
import Faces

struct ChangePIN: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "change-pin",
        abstract: "Change the PIN, or replace the 5-digit transport PIN.",
        discussion: """
            Waits for an eID card, reads its PIN state and asks for exactly what the card needs: \
            the current PIN (6 digits, or the 5-digit transport PIN), the CAN first when the PIN \
            is suspended, the PUK when it is blocked; then the new 6-digit PIN twice. Secrets are \
            typed on the terminal with echo off; they are never taken from the command line.

            With --json every SDK message is one JSON line on standard output (CHANGE_PIN first \
            and last). When standard input is not a terminal, the answers are read from it as SDK \
            commands (SET_PIN, SET_CAN, SET_PUK, SET_NEW_PIN, CANCEL), one JSON object per line, \
            each checked against the question asked when it is read (BAD_STATE for another); \
            answers may be piped ahead in order. End of input cancels.
            """
    )

    @OptionGroup var options: ReaderOptions

    @Option(name: .long, help: ArgumentHelp("Use only this reader.", valueName: "name"))
    var reader: String?

    @Option(name: .long, help: ArgumentHelp("Seconds to wait for a card, and for each answer.", valueName: "seconds"))
    var timeout: Double = 600

    func validate() throws {
        try options.validate(reader: reader, timeout: timeout)
    }

    /// With --simulator the in-process card only: a card in a PC/SC reader would get the
    /// secrets meant for the simulator (a wrong PIN costs a real card an attempt).
    var cardReader: String? { options.simulator ? SimulatedCardChannel.readerName : reader }

    func run() throws {
        // Before any secret is read (or, with --simulator, held by the in-process card).
        CoreDumps.disable()
        let face = ChangePINFace(
            context: options.context(), options: .init(json: options.json, reader: cardReader, timeout: timeout))
        try face.run().exitUnlessSuccess()
    }
}
