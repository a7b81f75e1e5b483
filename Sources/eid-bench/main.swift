import CardSimulator
import EAC
import Foundation
// eid-bench: in-process figures for `make bench` (measured, never asserted).
// PACE with the PIN against the software card, median CPU time of 50 runs.
import SmartCard

func cpuSeconds() -> Double {
    var t = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t)
    return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
}

let runs = Int(CommandLine.arguments.dropFirst().first ?? "") ?? 50
let channel = SimulatedCardChannel(card: SimulatedEIDCard())
let cardAccess = try channel.readFile(shortFileID: EIDFile.cardAccessShortID)
guard let paceInfo = try? SecurityInfos(efCardAccess: cardAccess).runnablePACEInfo() else {
    fatalError("the software card has no PACEInfo")
}
var times: [Double] = []
for _ in 0..<runs {
    let start = cpuSeconds()
    let pace = try PACE(channel: channel, paceInfo: paceInfo, password: .pin("123456"))
    _ = try pace.establishSecureMessaging()
    times.append(cpuSeconds() - start)
}
times.sort()
let median = times[times.count / 2]
print(
    String(
        format: "%-34@ CPU median %6.2f ms  (min %.2f, max %.2f, n=%d; terminal and card side, %@)",
        "PACE ECDH-GM brainpoolP256r1" as NSString, median * 1000, times[0] * 1000, times[times.count - 1] * 1000,
        runs, paceInfo.protocol.name.map { $0 as NSString } ?? "?"))
