import SmartCard

/// The paired phones as card readers: one reader per phone slot, its card as IFDStatus tells it,
/// `hasPINPad` in PIN-pad mode. A phone is connected on the first look at the readers; one that
/// cannot be reached, or whose connection breaks, has no readers (a removed reader, never a hang)
/// and is tried again after `retryInterval` seconds. IFDStatus pushes end `waitForChange`.
public final class RemoteIFDReaderProvider: CardReaderProvider, @unchecked Sendable {
    /// Finds a phone's address anew when the stored one fails (discovery); nil: not heard.
    public typealias Locator = @Sendable (PairedDevice) -> String?

    private let opener: any IFDChannelOpener
    private let udName: String
    private let timeouts: IFDTimeouts
    private let retryInterval: Double
    private let locate: Locator?
    private let moved: @Sendable (PairedDevice) -> Void
    private let refused: @Sendable (PairedDevice, RemoteIFDError) -> Void
    private let phones: Locked<[Phone]>
    private let wake = Condition()
    private var cancelled = false

    private struct Phone {
        var device: PairedDevice
        var session: IFDSession?
        var retryAt: Deadline?
    }

    /// `udName`: this computer as the phones show it. `moved` learns a phone's new address; `refused` learns that a
    /// phone no longer takes this computer (or is not the paired one), which only pairing again mends.
    public init(
        devices: [PairedDevice], opener: any IFDChannelOpener, udName: String, timeouts: IFDTimeouts = IFDTimeouts(),
        retryInterval: Double = 10, locate: Locator? = nil,
        moved: @escaping @Sendable (PairedDevice) -> Void = { _ in },
        refused: @escaping @Sendable (PairedDevice, RemoteIFDError) -> Void = { _, _ in }
    ) {
        self.opener = opener
        self.udName = udName
        self.timeouts = timeouts
        self.retryInterval = retryInterval
        self.locate = locate
        self.moved = moved
        self.refused = refused
        phones = Locked(devices.map { Phone(device: $0) })
    }

    deinit { for phone in phones.withLock({ $0 }) { phone.session?.close() } }

    public func readers() throws -> [ReaderSnapshot] {
        openSessions()
        for session in liveSessions() { try? session.poll(timeout: 0) }
        return phones.withLock { phones in
            phones.flatMap { phone -> [ReaderSnapshot] in
                guard let session = phone.session, !session.isClosed else { return [] }
                let slots = session.slots.filter(\.status.connectedReader)
                return slots.map { slot in
                    ReaderSnapshot(
                        name: Self.readerName(phone: phone.device.name, slot: slot.status.slotName, slots: slots.count),
                        hasPINPad: slot.status.hasPINPad, cardPresent: slot.status.cardAvailable,
                        cardEvents: slot.cardEvents)
                }
            }
        }
    }

    /// A phone's reader is named after the phone; a phone with several slots adds the slot's name.
    public static func readerName(phone: String, slot: String, slots: Int) -> String {
        slots == 1 ? phone : "\(phone) (\(slot))"
    }

    public func connect(reader: String, exclusive: Bool) throws -> CardConnection {
        let match = phones.withLock { phones -> (IFDSession, String)? in
            for phone in phones {
                guard let session = phone.session, !session.isClosed else { continue }
                let slots = session.slots.filter(\.status.connectedReader)
                for slot in slots
                where Self.readerName(phone: phone.device.name, slot: slot.status.slotName, slots: slots.count)
                    == reader
                {
                    return (session, slot.status.slotName)
                }
            }
            return nil
        }
        guard let (session, slot) = match else { throw CardError.cardRemoved }
        return try RemoteCardConnection.connect(session: session, slotName: slot, exclusive: exclusive)
    }

    public func waitForChange(timeout: Double) throws {
        let deadline = Deadline(secondsFromNow: timeout)
        wake.lock()
        cancelled = false
        wake.unlock()
        while !deadline.hasPassed {
            let sessions = liveSessions()
            if sessions.isEmpty {
                wake.lock()
                if !cancelled { wake.wait(seconds: min(deadline.remaining, timeouts.pollSlice * 5)) }
                wake.unlock()
            }
            let slice = min(deadline.remaining, timeouts.pollSlice) / Double(max(1, sessions.count))
            for session in sessions where (try? session.poll(timeout: slice)) == true { return }
            wake.lock()
            let stop = cancelled
            wake.unlock()
            if stop { return }
        }
    }

    public func cancelWait() {
        wake.lock()
        cancelled = true
        wake.broadcast()
        wake.unlock()
    }

    private func liveSessions() -> [IFDSession] {
        phones.withLock { $0.compactMap(\.session).filter { !$0.isClosed } }
    }

    /// Connects the phones without a live session whose retry time has come, one after another.
    private func openSessions() {
        let due = phones.withLock { phones in
            phones.indices.filter { i in
                (phones[i].session == nil || phones[i].session!.isClosed) && (phones[i].retryAt?.hasPassed ?? true)
            }
        }
        for index in due {
            let device = phones.withLock { $0[index].device }
            let session = open(device)
            phones.withLock {
                $0[index].session = session
                $0[index].retryAt = session == nil ? Deadline(secondsFromNow: retryInterval) : nil
            }
        }
    }

    /// A session with the phone at its stored address, else at the address discovery finds now.
    private func open(_ device: PairedDevice) -> IFDSession? {
        do {
            return try session(device, at: device.address)
        } catch RemoteIFDError.notPaired(_, let why) {
            refused(device, .notPaired(phone: device.name, why))
            return nil
        } catch {}
        guard let address = locate?(device), address != device.address,
            let session = try? session(device, at: address)
        else { return nil }
        var moved = device
        moved.address = address
        phones.withLock { phones in
            if let i = phones.firstIndex(where: { $0.device.ifdID == device.ifdID }) { phones[i].device = moved }
        }
        self.moved(moved)
        return session
    }

    private func session(_ device: PairedDevice, at address: String) throws -> IFDSession {
        let channel = try opener.open(
            address: address, certificateSHA256: device.certificateSHA256, timeout: timeouts.open)
        let session = try IFDSession.establish(
            channel: channel, phoneName: device.name, udName: udName, timeouts: timeouts)
        do {
            try session.refreshStatus()
        } catch {
            session.close()
            throw error
        }
        return session
    }
}
