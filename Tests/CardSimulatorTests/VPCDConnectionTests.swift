import Foundation
import SmartCard
import Testing

@testable import CardSimulator

@Suite(.serialized) struct VPCDConnectionTests {
    let fastRetry = VPCDConnection.RetryPolicy(initialDelay: 0.05, maximumDelay: 0.2, connectTimeout: 2)

    /// Runs `connection` on a thread; returns a way to wait for its end.
    func start(_ connection: VPCDConnection) -> DispatchSemaphore {
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            connection.run()
            done.signal()
        }
        return done
    }

    @Test func framingOfControlCodesAndAPDUs() throws {
        let server = try TestVPCDServer()
        let card = SimulatedEIDCard()
        let events = LockedLines()
        let connection = VPCDConnection(
            endpoint: VPCDEndpoint(host: "127.0.0.1", port: server.port), card: card, retry: fastRetry,
            onEvent: { events.append($0.description) })
        let done = start(connection)
        try server.accept()
        try server.send([0x01])  // power on: no answer
        #expect(server.staysQuiet())
        #expect(card.isPoweredOn)
        try server.send([0x04])  // get ATR
        #expect(try server.receive() == SimulatedEIDCard.defaultATR)
        try server.send([UInt8](hex: "00a4020c02011c")!)
        #expect(try server.receive() == [0x90, 0x00])
        try server.send([UInt8](hex: "00b09c00000000")!)  // extended: the whole file in one frame
        #expect(try server.receive() == SimulatorSecurityInfos.cardAccess + [0x90, 0x00])
        try server.send([0x00, 0xA4])  // malformed APDU: 6700, connection stays
        #expect(try server.receive() == [0x67, 0x00])
        // An empty frame (AusweisApp2 sends one for a command it could not encode) is a
        // malformed command too: 6700, where silence left vpcd and the terminal waiting forever.
        try server.send([])
        #expect(try server.receive(timeout: 10) == [0x67, 0x00])
        try server.send([0x09])  // unknown control code: ignored
        #expect(server.staysQuiet())
        try server.send([0x02])  // reset
        #expect(server.staysQuiet())
        try server.send([0x00])  // power off
        #expect(server.staysQuiet())
        #expect(!card.isPoweredOn)
        try server.send([UInt8](hex: "00a4020c02011c")!)  // an unpowered card: 6F00
        #expect(try server.receive() == [0x6F, 0x00])
        let stopAsked = Date()
        connection.stop()
        #expect(done.wait(timeout: .now() + 10) == .success)
        #expect(Date().timeIntervalSince(stopAsked) < 10)
        #expect(
            events.all == [
                "card inserted into vpcd at 127.0.0.1:\(server.port)", "ignored unknown vpcd control code 9",
            ])
    }

    @Test func reconnectsWhenVPCDClosesTheConnection() throws {
        let server = try TestVPCDServer()
        let card = SimulatedEIDCard()
        let events = LockedLines()
        let connection = VPCDConnection(
            endpoint: VPCDEndpoint(host: "127.0.0.1", port: server.port), card: card, retry: fastRetry,
            onEvent: { events.append($0.description) })
        let done = start(connection)
        try server.accept()
        try server.send([0x01])
        try server.send([0x04])
        #expect(try server.receive() == SimulatedEIDCard.defaultATR)
        server.dropClient()
        try server.accept()  // the card comes back on its own
        #expect(!card.isPoweredOn)  // removal powered it off
        try server.send([0x01])
        try server.send([UInt8](hex: "00b09c0004")!)
        #expect(try server.receive() == Array(SimulatorSecurityInfos.cardAccess.prefix(4)) + [0x90, 0x00])
        connection.stop()
        #expect(done.wait(timeout: .now() + 10) == .success)
        let endpoint = "127.0.0.1:\(server.port)"
        #expect(
            events.all == [
                "card inserted into vpcd at \(endpoint)",
                "vpcd at \(endpoint) closed the connection (card removed); reconnecting in 0.1 s",
                "card inserted into vpcd at \(endpoint)",
            ])
    }

    @Test func retriesWithBackoffWhileRefusedThenConnects() throws {
        // Find a free port, then leave it closed for a while.
        let port = try TestVPCDServer().port
        let events = LockedLines()
        let connection = VPCDConnection(
            endpoint: VPCDEndpoint(host: "127.0.0.1", port: port), card: SimulatedEIDCard(), retry: fastRetry,
            onEvent: { events.append($0.description) })
        let done = start(connection)
        // Three refusals (0.35 s of backoff), however long a loaded machine takes to get there.
        let deadline = Date().addingTimeInterval(10)
        while events.all.filter({ $0.contains("refused the connection") }).count < 3 && Date() < deadline {
            Thread.sleep(forTimeInterval: 0.05)
        }
        let server = try TestVPCDServer(port: port)
        try server.accept()
        try server.send([0x04])
        #expect(try server.receive() == SimulatedEIDCard.defaultATR)
        connection.stop()
        #expect(done.wait(timeout: .now() + 10) == .success)
        let lines = events.all
        let refused = lines.filter { $0.contains("refused the connection") }
        #expect(refused.count >= 3)
        #expect(
            refused.prefix(3) == [
                "vpcd at 127.0.0.1:\(port) refused the connection; retrying in 0.1 s",  // 0.05 rounds to 0.1
                "vpcd at 127.0.0.1:\(port) refused the connection; retrying in 0.1 s",
                "vpcd at 127.0.0.1:\(port) refused the connection; retrying in 0.2 s",
            ])
        #expect(lines.last == "card inserted into vpcd at 127.0.0.1:\(port)")
    }

    @Test func stopsWhileWaitingToRetry() {
        let events = LockedLines()
        let connection = VPCDConnection(
            endpoint: VPCDEndpoint(host: "127.0.0.1", port: 1), card: SimulatedEIDCard(),
            retry: VPCDConnection.RetryPolicy(initialDelay: 30), onEvent: { events.append($0.description) })
        let done = start(connection)
        // Stopped once it waits to retry (it said so), well before the 30 s wait ends.
        let deadline = Date().addingTimeInterval(20)
        while !events.all.contains(where: { $0.contains("retrying in") }) && Date() < deadline {
            Thread.sleep(forTimeInterval: 0.01)
        }
        #expect(events.all.contains { $0.contains("retrying in 30") }, "\(events.all)")
        connection.stop()
        #expect(done.wait(timeout: .now() + 20) == .success)
    }

    @Test func endpointParsing() {
        #expect(VPCDEndpoint(parsing: "127.0.0.1:35963") == .default)
        #expect(VPCDEndpoint(parsing: "localhost:37120") == VPCDEndpoint(host: "localhost", port: 37120))
        #expect(VPCDEndpoint(parsing: "[::1]:37120")?.description == "[::1]:37120")
        for bad in ["", "host", ":1", "host:", "host:0", "host:65536", "host:x"] {
            #expect(VPCDEndpoint(parsing: bad) == nil)
        }
    }

    @Test func eventTexts() {
        #expect(
            VPCDEvent.connectFailed(.default, reason: "refused the connection", retryIn: 1.6).description
                == "vpcd at 127.0.0.1:35963 refused the connection; retrying in 1.6 s")
        #expect(
            VPCDEvent.connectFailed(.default, reason: "refused the connection", retryIn: 5).description
                == "vpcd at 127.0.0.1:35963 refused the connection; retrying in 5 s")
    }
}
