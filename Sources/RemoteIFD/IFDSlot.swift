/// A slot of a phone as eid knows it: its last IFDStatus and a counter of card arrivals and
/// departures (`ReaderSnapshot.cardEvents`).
public struct IFDSlot: Equatable, Sendable {
    public var status: IFDStatus
    public var cardEvents: UInt32
}

/// The slots of one session, updated by every IFDStatus.
struct SlotTable {
    var slots: [IFDSlot] = []
    var closed = false
    /// Moves with every change of any slot.
    var changes: UInt32 = 0

    mutating func update(_ status: IFDStatus) {
        guard let index = slots.firstIndex(where: { $0.status.slotName == status.slotName }) else {
            slots.append(IFDSlot(status: status, cardEvents: status.cardAvailable ? 1 : 0))
            changes &+= 1
            return
        }
        let before = slots[index].status
        guard before != status else { return }
        if before.cardAvailable != status.cardAvailable { slots[index].cardEvents &+= 1 }
        slots[index].status = status
        changes &+= 1
    }
}
