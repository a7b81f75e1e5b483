import RemoteIFD
import SmartCard
import Workflows

/// `eid pair`: finds the phone waiting for pairing (or takes the address given), asks for the code
/// it shows, pairs and stores it; lists and forgets paired phones. The network and the store come
/// in through `PairingTools`, so that a test runs it with fakes.
public struct PairFace {
    let context: FaceContext
    let json: Bool
    let tools: PairingTools

    public init(context: FaceContext, json: Bool, tools: PairingTools) {
        self.context = context
        self.json = json
        self.tools = tools
    }

    /// What to pair with: a phone named `name` among those heard, the one phone in pairing mode,
    /// or (`address`) the phone at wss://host:port without listening.
    public struct Target: Sendable {
        public var name: String?
        public var address: String?
        /// Seconds to listen for announcements.
        public var listen: Double
        /// Seconds to wait for the code.
        public var codeTimeout: Double

        public init(name: String? = nil, address: String? = nil, listen: Double = 10, codeTimeout: Double = 120) {
            self.name = name
            self.address = address
            self.listen = listen
            self.codeTimeout = codeTimeout
        }
    }

    /// Pairs; returns the exit status.
    public func pair(_ target: Target) -> Int32 {
        let phone: (name: String?, address: String)
        switch choose(target) {
        case .success(let chosen): phone = chosen
        case .failure(let failure): return fail(failure.sentence, failure.status)
        }
        tell(.enterCode(phone: phone.name ?? phone.address))
        let code: Secret
        switch PairingCodeInput(context: context).read(
            prompt: "Pairing code shown on \(phone.name ?? "the phone"): ", timeout: target.codeTimeout)
        {
        case .success(let secret): code = secret
        case .failure(let failure): return fail(failure.sentence, failure.status)
        }
        defer { code.wipe() }
        let device: PairedDevice
        do {
            device = try tools.pairing.pair(address: phone.address, name: phone.name, code: code)
        } catch let error as RemoteIFDError {
            if case .pairingRefused = error { return fail(error.description, ExitStatus.refused) }
            if case .contextRefused = error { return fail(error.description, ExitStatus.refused) }
            return fail(error.description, ExitStatus.network)
        } catch {
            return fail("pairing failed: \(error)", ExitStatus.network)
        }
        do { try tools.store.save(device) } catch {
            return fail("paired, but cannot store the phone: \(error)", ExitStatus.internalError)
        }
        tell(.paired(device))
        return ExitStatus.success
    }

    /// `--list`: one line (IFD_DEVICE) per paired phone; unreadable files on standard error.
    public func list() -> Int32 {
        let (devices, unreadable) = tools.store.load()
        for device in devices { tell(.device(device)) }
        for problem in unreadable { tell(.error(problem.description)) }
        if devices.isEmpty && !json && unreadable.isEmpty {
            context.console.out(
                "no phone paired; pair one with 'eid pair' (AusweisApp on the phone: Card reader, Pair)")
        }
        return ExitStatus.success
    }

    /// `--forget NAME`.
    public func forget(_ name: String) -> Int32 {
        do {
            tell(.forgotten(try tools.store.forget(name)))
            return ExitStatus.success
        } catch {
            return fail(error.description, ExitStatus.usage)
        }
    }

    struct Failure: Error {
        var sentence: String
        var status: Int32
    }

    private func choose(_ target: Target) -> Result<(name: String?, address: String), Failure> {
        if let address = target.address { return .success((target.name, address)) }
        let heard: [IFDAnnouncement]
        do {
            if !json {
                context.console.out(
                    "listening for phones for up to \(Int(target.listen)) s: open AusweisApp on the phone, "
                        + "Card reader, Pair new device")
            }
            heard = try tools.discover(target.listen) { phone in
                phone.pairing && (target.name == nil || phone.name == target.name)
            }
        } catch {
            return .failure(Failure(sentence: "\(error)", status: ExitStatus.network))
        }
        for phone in heard { tell(.found(phone)) }
        let candidates = heard.filter { $0.pairing && (target.name == nil || $0.name == target.name) }
        guard let phone = candidates.first, let address = phone.addresses.first else {
            let which = target.name.map { "no phone named \($0) is" } ?? "no phone is"
            return .failure(
                Failure(
                    sentence: "\(which) waiting for pairing on this network; on the phone open AusweisApp, "
                        + "Card reader, Pair new device, and try again (or give --address wss://HOST:PORT)",
                    status: ExitStatus.network))
        }
        guard phone.isSupported else {
            return .failure(
                Failure(
                    sentence:
                        "\(phone.name) speaks only an older protocol (\(phone.supportedAPIs.joined(separator: ", "))); "
                        + "update AusweisApp on the phone", status: ExitStatus.refused))
        }
        return .success((phone.name, address))
    }

    private func tell(_ message: PairMessage) {
        if json {
            context.console.json(message.json)
        } else if case .error = message, let line = message.line {
            context.console.err(line)
        } else if let line = message.line {
            context.console.out(line)
        }
    }

    private func fail(_ sentence: String, _ status: Int32) -> Int32 {
        tell(.error(sentence))
        return status
    }
}

/// The network and the store as `eid pair` uses them.
public struct PairingTools: Sendable {
    /// Listens at most the given seconds for announcements; stops early when the predicate holds.
    public var discover: @Sendable (Double, (IFDAnnouncement) -> Bool) throws -> [IFDAnnouncement]
    public var pairing: IFDPairing
    public var store: PairedDeviceStore

    public init(
        discover: @escaping @Sendable (Double, (IFDAnnouncement) -> Bool) throws -> [IFDAnnouncement],
        pairing: IFDPairing, store: PairedDeviceStore
    ) {
        self.discover = discover
        self.pairing = pairing
        self.store = store
    }
}
