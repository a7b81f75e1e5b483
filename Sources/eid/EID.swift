import ArgumentParser
import Online
import Workflows

@main
struct EID: ParsableCommand {
    static let version = EIDVersion.current

    static let configuration = CommandConfiguration(
        commandName: "eid",
        abstract: "Use the German eID card (Personalausweis) and residence permit from the shell.",
        discussion: """
            eid reads the card through PC/SC (pcscd) and speaks the messages of the AusweisApp2 SDK. \
            It lists readers and the PIN state of the card in each (readers), changes the PIN or \
            replaces the transport PIN (change-pin), authenticates to online services (auth) and is the \
            local eID client that browsers and SDK clients reach on 127.0.0.1:24727 (serve). It \
            does not do eSign, and it does not read the card's data without an authorised service.

            Every command has a JSON mode (--json): one SDK message per line on standard output; \
            where standard input is not a terminal, answers are read from it as SDK commands.
            """,
        version: version,
        subcommands: [Readers.self, ChangePIN.self, Auth.self, Serve.self, Pair.self]
    )
}
