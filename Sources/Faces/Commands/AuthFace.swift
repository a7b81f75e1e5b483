import EAC
import EIDCrypto
import Online
import SDK
import SmartCard
import Workflows

/// `eid auth`: an online authentication (TR-03124) with the terminal face (who asks for what,
/// "Proceed? [y/N]", the PIN prompts, the outcome) or the JSON face (the SDK messages, commands
/// from the context's input), wired from a context. The network is injected (`Connect`, which the
/// workflow calls in its StateGetTcToken): the executable fetches the TcToken over TLS-1 and
/// gives the PAOS transport over TLS-2; tests give a server in process.
public struct AuthFace {
    public struct Options: Sendable {
        public var json: Bool
        public var reader: String?
        public var timeout: Double
        /// Accept without asking (scripts).
        public var yes: Bool
        /// Optional rights not to send, by their SDK names (`FamilyName`, …).
        public var deny: [String]
        /// Hand the address to continue at to the opener (`xdg-open`) at the end.
        public var open: Bool
        /// Who asks when there is no terminal (nil: nobody, the authentication fails).
        public var pinentry: PinentryProgram?

        public init(
            json: Bool, reader: String? = nil, timeout: Double = 600, yes: Bool = false, deny: [String] = [],
            open: Bool = false, pinentry: PinentryProgram? = nil
        ) {
            self.json = json
            self.reader = reader
            self.timeout = timeout
            self.yes = yes
            self.deny = deny
            self.open = open
            self.pinentry = pinentry
        }
    }

    /// What the authentication trusts.
    public struct Trust: Sendable {
        /// The CVCAs the service's chain must lead to.
        public var anchors: [CVCertificate]
        /// CVCA link certificates the chain may pass through.
        public var links: [CVCertificate]
        /// The CSCA EF.CardSecurity must chain to (nil: the signature inside the file only).
        public var csca: X509Certificate?
        public var date: CalendarDate

        public init(
            anchors: [CVCertificate], links: [CVCertificate] = [], csca: X509Certificate? = nil, date: CalendarDate
        ) {
            self.anchors = anchors
            self.links = links
            self.csca = csca
            self.date = date
        }

        /// What `eid auth` trusts: the CVCAs of the German eID PKI built into eid (production and
        /// test, as AusweisApp's pre-verification trusts both) with their link certificates, and
        /// `extra` (--trust-cvca, --test-pki).
        public static func builtIn(adding extra: [CVCertificate], csca: X509Certificate? = nil, date: CalendarDate)
            -> Trust
        {
            let sets = [GermanEIDPKI.production, GermanEIDPKI.test]
            return Trust(
                anchors: sets.flatMap(\.anchors) + extra, links: sets.flatMap(\.links), csca: csca, date: date)
        }
    }

    /// The TcToken for a tcTokenURL, and the PAOS transport to its eID server; or why not (the
    /// workflow's `TcTokenFetcher`).
    public typealias Connect = TcTokenFetcher

    /// Why `Connect` gave no transport.
    public typealias ConnectFailure = AuthConnection.Failure

    let context: FaceContext
    let options: Options
    let trust: Trust
    let connect: Connect
    let opener: URLOpener

    public init(
        context: FaceContext, options: Options, trust: Trust, connect: @escaping Connect,
        opener: URLOpener = URLOpener()
    ) {
        self.context = context
        self.options = options
        self.trust = trust
        self.connect = connect
        self.opener = opener
    }

    /// How an authentication ended: the exit status (its sentence, if any, already said), the
    /// address to continue at (the refresh address with the result, or the
    /// CommunicationErrorAddress), and why it failed (eid serve answers the browser by them).
    public struct Ending: Sendable {
        public var status: Int32
        public var url: String?
        public var reason: FailureReason?
    }

    /// Runs the authentication for `url` (a tcTokenURL or an activation URL); returns the exit
    /// status (its sentence, if any, already said). The workflow fetches the TcToken; the readers
    /// and the terminal are opened once it came (`DeferredWiring`).
    public func run(url: String) -> Int32 { authenticate(url: url).status }

    /// Runs the authentication for `url` (a tcTokenURL or an activation URL): how it ended.
    public func authenticate(url: String) -> Ending {
        let console = context.console
        let wiring = DeferredWiring(
            session: FaceSession(context: context, json: options.json, pinentry: options.pinentry),
            transportPIN: false, title: "eid: online authentication"
        ) { [options] in
            AuthReviewPeer(inner: $0, person: $1, console: console, yes: options.yes, deny: options.deny)
        }
        var peer: SDKPeer = wiring
        var status: StatusReport?
        if options.json {
            status = StatusReport(
                inner: wiring, workflow: "AUTH", status: context.sdkStatus, enabled: context.workflowOptions.status,
                level: console.apiLevel)
            peer = status!
        }
        defer { if options.json { context.sdkStatus.end() } }
        let workflow = AuthWorkflow(
            configuration: .init(
                url: url, trustAnchors: trust.anchors, linkCertificates: trust.links, date: trust.date,
                csca: trust.csca),
            fetch: wiring.wiring(after: connect), provider: wiring, peer: peer, readerName: options.reader,
            timeouts: .init(card: options.timeout, input: options.timeout))
        if let status { workflow.onProgress = status.report }
        let result = withExtendedLifetime(wiring) {
            defer { wiring.end() }
            return workflow.run()
        }
        // The terminal face's last line: the address with the result parameters, as the browser
        // gets it (the JSON face's AUTH gives the address as the TcToken had it, as AusweisApp's SDK).
        if !options.json && wiring.wired != nil, let url = result.url { console.out("Continue at: \(url)") }
        // An authentication that ended before the service answered sends the browser nowhere.
        if options.open && wiring.wired != nil && !wiring.isStopped { open(result.url) }
        guard result.outcome.result.major != .ok else {
            return Ending(status: ExitStatus.success, url: result.url, reason: nil)
        }
        let reason = result.outcome.reason ?? .authServerResult(result.outcome.result)
        if wiring.isStopped {
            return Ending(status: console.report(.interrupted, quiet: true), url: result.url, reason: .interrupted)
        }
        return Ending(
            status: console.report(reason, quiet: options.json && reason.isCancellation), url: result.url,
            reason: reason)
    }

    /// --open: the address to continue at (the refresh address with the result, or the
    /// communication-error address) to the opener; a failure is said on standard error and does
    /// not change the exit status (the authentication's outcome stands).
    private func open(_ url: String?) {
        guard let url else {
            context.console.err("eid: --open: the service gave no address to continue at")
            return
        }
        do { try opener.open(url, quiet: options.json) } catch {
            context.console.err("eid: --open: \(error)")
        }
    }
}
