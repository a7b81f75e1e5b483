import ArgumentParser
import CardSimulator
import EAC
import EIDCrypto
import Faces
import FoundationEssentials
import TestPKI

struct Auth: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "auth",
        abstract: "Authenticate to an online service with the eID card (TR-03124).",
        discussion: """
            URL is the service's tcTokenURL (https), or the activation URL a browser would open \
            (http://127.0.0.1:24727/eID-Client?tcTokenURL=…, eid://…?tcTokenURL=…). eid fetches the \
            TcToken, talks PAOS with the service's eID server over TLS, and before the card is touched \
            shows who asks (the service's certificate description) and which data, required and \
            optional; then it asks "Proceed? [y/N]" and the PIN (the CAN when the PIN is suspended, the \
            PUK when it is blocked). At the end it says the outcome and the address to continue at; \
            --open hands that address (https only) to xdg-open, as a browser-started client sends the \
            browser on.

            The service's certificates must lead to a trusted CVCA. Built in are the CVCAs of the German \
            eID PKI, production (DECVCAeID) and test (DETESTeID, DECVCAeIDCT), with their link \
            certificates, as AusweisApp trusts them (the card itself refuses a chain of the other PKI). \
            --trust-cvca adds a CVCA; --test-pki adds the project's TEST CVCA, whose private key is \
            public (never trust it for real data). --simulator uses the in-process software card, and no \
            card in a PC/SC reader, and implies --test-pki.

            The card's EF.CardSecurity is parsed and sent to the eID server, whose passive \
            authentication decides whether the card is genuine (TR-03130), as AusweisApp leaves it to the \
            server. --csca also verifies it in eid: signed by a document signer of this CSCA, or eid \
            stops before Chip Authentication. --simulator verifies against the simulator's TEST CSCA.

            With --json every SDK message is one JSON line on standard output (AUTH first and last, \
            ACCESS_RIGHTS, READER, ENTER_PIN, ...). When standard input is not a terminal the answers \
            are read from it as SDK commands (ACCEPT, SET_ACCESS_RIGHTS, GET_ACCESS_RIGHTS, \
            GET_CERTIFICATE, SET_PIN, SET_CAN, SET_PUK, CANCEL), one JSON object per line.

            Without a terminal (no /dev/tty, as under a desktop launcher), --pinentry asks through a \
            pinentry program instead (GnuPG's Assuan protocol): "Proceed?" as a confirmation showing \
            the service and the data, then the PIN, CAN or PUK. A terminal pinentry (pinentry-curses, \
            pinentry-tty) draws on the terminal GPG_TTY names, as with gpg-agent.
            """
    )

    @OptionGroup var options: ReaderOptions

    @Option(name: .long, help: ArgumentHelp("Use only this reader.", valueName: "name"))
    var reader: String?

    @Option(
        name: .customLong("trust-cvca"),
        help: ArgumentHelp("Trust this CVCA certificate (DER) as well; repeatable.", valueName: "file"))
    var trustCVCA: [String] = []

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Verify the card's EF.CardSecurity against this CSCA certificate (X.509, DER) as well.",
            valueName: "file"))
    var csca: String?

    @Flag(name: .customLong("test-pki"), help: "Trust the project's TEST CVCA (its key is public; tests only).")
    var testPKI = false

    @Flag(help: "Proceed without asking (the requested data is still shown).")
    var yes = false

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Do not send this optional right (SDK name, e.g. FamilyName); repeatable.", valueName: "right"))
    var deny: [String] = []

    @Flag(help: "At the end, open the address to continue at (https only) with xdg-open.")
    var open = false

    @Option(
        name: .long,
        help: ArgumentHelp(
            "With no terminal, ask through this pinentry program (e.g. pinentry-gnome3; GPG_TTY for a terminal one).",
            valueName: "program"))
    var pinentry: String?

    @Option(name: .long, help: ArgumentHelp("Seconds to wait for a card, and for each answer.", valueName: "seconds"))
    var timeout: Double = 600

    @Argument(help: ArgumentHelp("The tcTokenURL, or an activation URL holding it.", valueName: "url"))
    var url: String

    func validate() throws {
        try options.validate(reader: reader, timeout: timeout)
        for name in deny where AccessRight(sdkName: name) == nil {
            throw ValidationError("--deny \(name): not an access right name (e.g. FamilyName, Address, DateOfBirth)")
        }
    }

    /// The reader whose card authenticates: with --simulator the in-process card only (it is
    /// what the test PKI trust and the simulator's CSCA are for), never a card that happens to
    /// sit in a PC/SC reader, which would get the PIN meant for the simulator.
    var cardReader: String? { options.simulator ? SimulatedCardChannel.readerName : reader }

    /// The CVCAs to trust beyond the built-in ones: those of the --trust-cvca files, and with
    /// `testPKI` the project's TEST CVCA (said on standard error).
    static func anchors(trustCVCA: [String], testPKI: Bool, console: Console) throws -> [CVCertificate] {
        var anchors = try trustedCVCAs(trustCVCA)
        if testPKI {
            let cvca = TestCertificateAuthority.projectCertificate
            anchors.append(cvca)
            console.err(
                "eid: trusting the project's TEST CVCA \(cvca.body.holderReference) (its private key is public; "
                    + "never use it for real data)")
        }
        return anchors
    }

    /// The CVCAs of the --trust-cvca files.
    static func trustedCVCAs(_ paths: [String]) throws -> [CVCertificate] {
        try paths.map { path in
            guard let data = try? Data(contentsOf: URL(fileURLWithPath: path)) else {
                throw ValidationError("--trust-cvca \(path): cannot read the file")
            }
            let certificate: CVCertificate
            do {
                certificate = try CVCertificate(encoded: [UInt8](data))
            } catch {
                throw ValidationError("--trust-cvca \(path): not a CV certificate (\(error))")
            }
            guard certificate.role == .cvca else {
                throw ValidationError("--trust-cvca \(path): not a CVCA certificate")
            }
            return certificate
        }
    }

    /// The CSCA of --csca; with --simulator and no --csca the simulator's TEST CSCA; else none.
    func cscaCertificate() throws -> X509Certificate? {
        guard let csca else { return options.simulator ? SimulatorTestPKI.csca : nil }
        guard let data = try? Data(contentsOf: URL(fileURLWithPath: csca)) else {
            throw ValidationError("--csca \(csca): cannot read the file")
        }
        do { return try X509Certificate(der: [UInt8](data)) } catch {
            throw ValidationError("--csca \(csca): not an X.509 certificate in DER")
        }
    }

    func run() throws {
        let csca = try cscaCertificate()
        let context = options.context()
        let anchors = try Self.anchors(
            trustCVCA: trustCVCA, testPKI: testPKI || options.simulator, console: context.console)
        // Before any secret is read (or, with --simulator, held by the in-process card).
        CoreDumps.disable()
        let face = AuthFace(
            context: context,
            options: .init(
                json: options.json, reader: cardReader, timeout: timeout, yes: yes, deny: deny, open: open,
                pinentry: pinentry.map { PinentryProgram.fromEnvironment(program: $0) }),
            trust: .builtIn(adding: anchors, csca: csca, date: .todayUTC()),
            connect: OnlineConnection.connect)
        try face.run(url: url).exitUnlessSuccess()
    }
}
