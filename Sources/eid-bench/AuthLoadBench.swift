import CardSimulator
import EAC
import Foundation
import OnlineClient
import SDK
import SmartCard
import Synchronization
import TLS
import TestPKI
import Workflows

/// `eid-bench auth URL CLIENTS SECONDS`: CLIENTS threads, each an eID client made of eid's
/// library (the TcToken fetch over TLS-1, `HTTPPAOSTransport` over TLS-2, `AuthWorkflow` with a
/// peer that answers ACCEPT and SET_PIN at once) and its own in-process software card (no
/// pcscd), authenticate again and again against the eid-testserver at URL (its tcTokenURL) for
/// SECONDS after a warm-up; prints the completed authentications per second, the failures and
/// the median time of one authentication. Measured, never asserted; the server is whatever
/// listens at URL (bench.py spawns the release eid-testserver and reads its peak RSS).
enum AuthLoadBench {
    /// Counts shared by the client threads.
    final class Tally: Sendable {
        let succeeded = Atomic<Int>(0)
        let failed = Atomic<Int>(0)
        let durations = Locked<[Double]>([])
        let counting = Atomic<Bool>(false)
        let stop = Atomic<Bool>(false)
    }

    static func run(url: String, clients: Int, seconds: Double) {
        let tally = Tally()
        let done = DispatchGroup()
        for _ in 0..<clients {
            done.enter()
            let thread = Thread {
                let card = SimulatorReaderProvider()
                while !tally.stop.load(ordering: .relaxed) {
                    let start = EACBench.wallSeconds()
                    let ok = authenticate(url: url, provider: card)
                    let counted = tally.counting.load(ordering: .relaxed) && !tally.stop.load(ordering: .relaxed)
                    guard counted else { continue }
                    if ok {
                        tally.succeeded.add(1, ordering: .relaxed)
                        let elapsed = EACBench.wallSeconds() - start
                        tally.durations.withLock { $0.append(elapsed) }
                    } else {
                        tally.failed.add(1, ordering: .relaxed)
                    }
                }
                done.leave()
            }
            thread.stackSize = 1 << 20
            thread.start()
        }
        // Warm-up: every client has TLS and the card's state set up once before counting.
        Thread.sleep(forTimeInterval: min(2, seconds / 2))
        tally.counting.store(true, ordering: .relaxed)
        let start = EACBench.wallSeconds()
        Thread.sleep(forTimeInterval: seconds)
        let elapsed = EACBench.wallSeconds() - start
        let succeeded = tally.succeeded.load(ordering: .relaxed)
        let failed = tally.failed.load(ordering: .relaxed)
        tally.stop.store(true, ordering: .relaxed)
        _ = done.wait(timeout: .now() + 60)
        let durations = tally.durations.withLock { $0.sorted() }
        let median = durations.isEmpty ? 0 : durations[durations.count / 2]
        print(
            String(
                format: "%2d clients: %6.1f auth/s  (%d in %.1f s, %d failed; one auth median %.1f ms)", clients,
                Double(succeeded) / elapsed, succeeded, elapsed, failed, median * 1000))
    }

    /// `eid-bench runs URL CLIENTS COUNT`: exactly COUNT authentications by CLIENTS threads (the
    /// soak of `make bench`, which reads the server's RSS and descriptors between such runs);
    /// prints how many succeeded and failed and the time they took.
    static func run(url: String, clients: Int, count: Int) {
        let remaining = Atomic<Int>(count)
        let tally = Tally()
        let done = DispatchGroup()
        let start = EACBench.wallSeconds()
        for _ in 0..<clients {
            done.enter()
            let thread = Thread {
                let card = SimulatorReaderProvider()
                while remaining.subtract(1, ordering: .relaxed).oldValue > 0 {
                    if authenticate(url: url, provider: card) {
                        tally.succeeded.add(1, ordering: .relaxed)
                    } else {
                        tally.failed.add(1, ordering: .relaxed)
                    }
                }
                done.leave()
            }
            thread.stackSize = 1 << 20
            thread.start()
        }
        done.wait()
        let elapsed = EACBench.wallSeconds() - start
        print(
            String(
                format: "%d authentications by %d clients in %.1f s (%.1f auth/s), %d failed",
                tally.succeeded.load(ordering: .relaxed), clients, elapsed,
                Double(tally.succeeded.load(ordering: .relaxed)) / elapsed, tally.failed.load(ordering: .relaxed)))
    }

    /// One whole authentication; true when it ended with ResultMajor ok.
    static func authenticate(url: String, provider: SimulatorReaderProvider) -> Bool {
        let session = HTTPSession()
        defer { session.close() }
        let workflow = AuthWorkflow(
            configuration: .init(
                url: url, trustAnchors: [TestCertificateAuthority.project.certificate], date: .todayUTC(),
                csca: SimulatorTestPKI.csca),
            fetch: { tcTokenURL in
                guard let fetched = try? TcTokenFetch(session: session).fetch(tcTokenURL),
                    let transport = try? HTTPPAOSTransport(session: session, fetched: fetched)
                else { return .failure(AuthConnection.Failure(.authTcTokenUnavailable(.connectionFailed))) }
                return .success(AuthConnection(tcToken: fetched.tcToken, transport: transport))
            },
            provider: provider, peer: AnsweringPeer(), readerName: SimulatedCardChannel.readerName,
            timeouts: .init(card: 10, input: 10))
        return workflow.run().outcome.result.major == .ok
    }
}

/// The user of a scripted authentication: ACCEPT on ACCESS_RIGHTS, the sample card's PIN on
/// ENTER_PIN; anything else asked ends the input (the workflow cancels).
final class AnsweringPeer: SDKPeer {
    private var pending: [SDKCommand] = []

    func send(_ message: SDKMessage) {
        switch message.name {
        case "ACCESS_RIGHTS": pending.append(.accept)
        case "ENTER_PIN": pending.append(.setSecret(.pin, value: Secret("123456")))
        default: break
        }
    }

    func nextCommand(timeout: Double) -> PeerInput {
        guard !pending.isEmpty else { return .endOfInput }
        return .command(pending.removeFirst())
    }

    var isCancelled: Bool { false }
}
