import CardSimulator
import EAC
import Foundation
import SmartCard

// eid-bench: figures for `make bench` (measured, never asserted).
//   eid-bench [RUNS]             PACE with the PIN against the software card in process, median CPU time
//   eid-bench eac READER [RUNS]  TA + CA + five data groups through pcscd after PACE (EACBench)
//   eid-bench auth URL CLIENTS SECONDS  parallel in-process clients against eid-testserver (AuthLoadBench)
//   eid-bench runs URL CLIENTS COUNT    exactly COUNT authentications so (the soak of `make bench`)

/// Runs `body`; a `BenchError.usage` exits 64 with the usage line, any other error 1 with its text.
func running(_ body: () throws -> Void) -> Never {
    do {
        try body()
        exit(0)
    } catch BenchError.usage(let line) {
        FileHandle.standardError.write(Data("usage: \(line)\n".utf8))
        exit(64)
    } catch {
        FileHandle.standardError.write(Data("eid-bench: \(error)\n".utf8))
        exit(1)
    }
}

if CommandLine.arguments.dropFirst().first == "eac" {
    let arguments = Array(CommandLine.arguments.dropFirst(2))
    running {
        guard let reader = arguments.first else { throw BenchError.usage("eid-bench eac READER [RUNS]") }
        let runs = Int(arguments.dropFirst().first ?? "") ?? 20
        guard runs > 0 else { throw BenchError.usage("eid-bench eac READER [RUNS], RUNS at least 1") }
        try EACBench.run(reader: reader, runs: runs)
    }
}
/// `eid-bench COMMAND TCTOKEN-URL CLIENTS AMOUNT`, a load run, when the first argument is
/// `command`: both numbers above zero (AMOUNT a count of runs or a number of seconds), else the
/// usage error naming `amount`; then `body` with them.
func loadRun<Amount: LosslessStringConvertible & Numeric & Comparable>(
    _ command: String, amount: String, _ body: (_ url: String, _ clients: Int, _ amount: Amount) -> Void
) {
    guard CommandLine.arguments.dropFirst().first == command else { return }
    let arguments = Array(CommandLine.arguments.dropFirst(2))
    running {
        guard arguments.count == 3, let clients = Int(arguments[1]), let value = Amount(arguments[2]), clients > 0,
            value > .zero
        else { throw BenchError.usage("eid-bench \(command) TCTOKEN-URL CLIENTS \(amount)") }
        body(arguments[0], clients, value)
    }
}

loadRun("runs", amount: "COUNT") { (url, clients, count: Int) in
    AuthLoadBench.run(url: url, clients: clients, count: count)
}
loadRun("auth", amount: "SECONDS") { (url, clients, seconds: Double) in
    AuthLoadBench.run(url: url, clients: clients, seconds: seconds)
}

func cpuSeconds() -> Double {
    var t = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t)
    return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
}

running {
    let runs = Int(CommandLine.arguments.dropFirst().first ?? "") ?? 50
    guard runs > 0 else { throw BenchError.usage("eid-bench [RUNS], RUNS at least 1") }
    let channel = SimulatedCardChannel(card: SimulatedEIDCard())
    let cardAccess = try channel.readFile(shortFileID: EIDFile.cardAccessShortID)
    guard let paceInfo = try? SecurityInfos(efCardAccess: cardAccess).runnablePACEInfo() else {
        throw BenchError.refused("PACE: the software card has no PACEInfo")
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
}
