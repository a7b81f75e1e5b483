import SmartCard
import TestPKI

/// A software eID card: it processes command APDU bytes and answers response bytes like an
/// nPA, with the persistent state of a card (passwords, counters, files) and the state of one
/// card session (power on to power off or reset). Thread-safe: one instance may serve vpcd on
/// one thread and an in-process channel on another.
///
/// Processing of one command (`respond(to:)`):
/// 1. parse (`CommandAPDU(bytes:)`; malformed → 6700);
/// 2. CLA: 00, 0C, 10, 1C, and 80 / 8C for handlers that take the proprietary class (VERIFY
///    of auxiliary data) only (else 6E00); SM bits without secure messaging → 6882; a plain
///    command while secure messaging runs ends it (as on the eID card); SM commands are
///    unwrapped by `session.secureMessaging`;
/// 3. dispatch by INS to a `CardCommandHandler` (none → 6D00; chaining not accepted → 6884);
/// 4. wrap the response when secure messaging runs (with the session the command came in);
/// 5. install `session.pendingSecureMessaging` if the handler left one (PACE step 4).
public final class SimulatedEIDCard: @unchecked Sendable {
    /// The ATR of an nPA: T=1, 10 historical bytes, TCK 75.
    public static let defaultATR: [UInt8] = [
        0x3B, 0x8A, 0x80, 0x01, 0x80, 0x31, 0xF8, 0x73, 0xF7, 0x41, 0xE0, 0x82, 0x90, 0x00, 0x75,
    ]

    public let atr: [UInt8]

    private let lock = Lock()
    private var context: CardContext
    private var handlers: [UInt8: any CardCommandHandler] = [:]
    private var powered = false
    private var traceObserver: (@Sendable (APDUTrace) -> Void)?

    public init(profile: CardProfile = CardProfile(), atr: [UInt8] = SimulatedEIDCard.defaultATR) {
        self.atr = atr
        // A profile's key was checked when the profile was read; should it still fail here, the
        // card keeps the default key and EF.CardSecurity, which stay consistent with each other.
        let chipAuthentication = (try? profile.chipAuthentication()) ?? SimulatorSecurityInfos.chipAuthentication
        let cardSecurity =
            (try? profile.cardSecurity(chipAuthentication: chipAuthentication))
            ?? SimulatorSecurityInfos.defaultCardSecurity
        context = CardContext(
            passwords: PasswordState(profile: profile),
            fileSystem: CardFileSystem(
                cardAccess: profile.cardAccess ?? SimulatorSecurityInfos.cardAccess, cardSecurity: cardSecurity,
                dataGroups: profile.dataGroups),
            trustAnchors: profile.trustAnchors ?? [TestCertificateAuthority.project.certificate],
            currentDate: profile.date ?? .todayUTC(), chipAuthentication: chipAuthentication)
        for handler: any CardCommandHandler in [
            SelectHandler(), ReadBinaryHandler(),
            ManageSecurityEnvironmentHandler(supportedPACEProtocols: SimulatorSecurityInfos.supportedPACEProtocols),
            ResetRetryCounterHandler(), GeneralAuthenticateHandler(), PerformSecurityOperationHandler(),
            GetChallengeHandler(), ExternalAuthenticateHandler(), VerifyHandler(),
        ] {
            handlers[handler.instruction] = handler
        }
    }

    /// Adds or replaces the handler for its instruction (how PACE, TA, CA plug in).
    public func register(_ handler: any CardCommandHandler) {
        lock.withLock { handlers[handler.instruction] = handler }
    }

    /// Called after every command with INS and status word (for `--trace`), outside the lock.
    public func onTrace(_ observer: (@Sendable (APDUTrace) -> Void)?) {
        lock.withLock { traceObserver = observer }
    }

    public var isPoweredOn: Bool { lock.withLock { powered } }

    /// The persistent password state (a copy).
    public var passwords: PasswordState { lock.withLock { context.passwords } }

    /// Runs `body` on the card's state under the card's lock (for tests and protocol set-up).
    public func withContext<T>(_ body: (inout CardContext) throws -> T) rethrows -> T {
        try lock.withLock { try body(&context) }
    }

    /// Powers the card on: a new card session when it was off; nothing when it is on already.
    public func powerOn() {
        lock.withLock {
            if !powered { context.session = CardSession() }
            powered = true
        }
    }

    /// Powers the card off: the session ends.
    public func powerOff() {
        lock.withLock {
            powered = false
            context.session = CardSession()
        }
    }

    /// A warm reset: a new card session, the card stays powered.
    public func reset() {
        lock.withLock {
            powered = true
            context.session = CardSession()
        }
    }

    /// The response APDU bytes for `command`, or no bytes when the card is powered off (a card
    /// without power does not answer).
    public func respond(to command: [UInt8]) -> [UInt8] {
        let (response, observer): (ResponseAPDU?, (@Sendable (APDUTrace) -> Void)?) = lock.withLock {
            guard powered else { return (nil, nil) }
            return (process(command), traceObserver)
        }
        if let observer, let response {
            observer(APDUTrace(command: command, statusWord: response.statusWord))
        }
        return response?.bytes ?? []
    }

    private static let acceptedClasses: Set<UInt8> = [0x00, 0x0C, 0x10, 0x1C, 0x80, 0x8C]

    /// Steps 1-4 above; called with the lock held.
    private func process(_ bytes: [UInt8]) -> ResponseAPDU {
        guard var command = try? CommandAPDU(bytes: bytes) else { return ResponseAPDU(statusWord: .wrongLength) }
        guard SimulatedEIDCard.acceptedClasses.contains(command.cla),
            command.cla & 0x80 == 0 || handlers[command.ins]?.acceptsProprietaryClass == true
        else { return ResponseAPDU(statusWord: .classNotSupported) }
        let protected = command.isSecureMessaging
        if protected {
            guard var sm = context.session.secureMessaging else {
                return ResponseAPDU(statusWord: .secureMessagingNotSupported)
            }
            do {
                command = try sm.unwrap(command)
                context.session.secureMessaging = sm
            } catch {
                context.session.endSecureMessaging()
                if case CardError.statusWord(let sw) = error { return ResponseAPDU(statusWord: sw) }
                return ResponseAPDU(statusWord: .smDataObjectsIncorrect)
            }
        } else if context.session.secureMessaging != nil {
            context.session.endSecureMessaging()
        }
        var response: ResponseAPDU
        if let handler = handlers[command.ins] {
            if command.isChained && !handler.acceptsChaining {
                response = ResponseAPDU(statusWord: StatusWord(rawValue: 0x6884))
            } else {
                do {
                    response = try handler.handle(command, context: &context)
                } catch CardError.statusWord(let sw) {
                    response = ResponseAPDU(statusWord: sw)
                } catch {
                    response = ResponseAPDU(statusWord: .noPreciseDiagnosis)
                }
            }
        } else {
            response = ResponseAPDU(statusWord: .instructionNotSupported)
        }
        if protected, var sm = context.session.secureMessaging {
            response = sm.wrap(response)
            context.session.secureMessaging = sm
        }
        if let next = context.session.pendingSecureMessaging {
            context.session.secureMessaging = next
            context.session.pendingSecureMessaging = nil
        }
        return response
    }
}
