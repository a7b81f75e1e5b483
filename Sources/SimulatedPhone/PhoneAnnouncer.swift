import NIOCore
import NIOPosix

/// Sends the phone's announcement as a UDP datagram to `target` every `interval` seconds (the first at once);
/// the announcement is made afresh each time (pairing may have ended).
final class PhoneAnnouncer: @unchecked Sendable {
    // @unchecked: `task` is set once in init; NIO's channel and task are thread-safe.
    private let channel: Channel
    private var task: RepeatedTask?

    init(
        group: EventLoopGroup, target: (host: String, port: Int), interval: Double,
        announcement: @escaping @Sendable () -> PhoneAnnouncement
    ) throws(PhoneError) {
        let address: SocketAddress
        do {
            address = try SocketAddress.makeAddressResolvingHost(target.host, port: target.port)
            channel = try DatagramBootstrap(group: group)
                .channelOption(.socketOption(.so_broadcast), value: 1)
                .bind(host: "0.0.0.0", port: 0).wait()
        } catch {
            throw .cannotListen(address: "udp \(target.host):\(target.port)", reason: "\(error)")
        }
        let channel = self.channel
        task = channel.eventLoop.scheduleRepeatedTask(
            initialDelay: .zero, delay: .milliseconds(Int64(interval * 1000))
        ) { _ in
            let text = announcement().json.text
            let envelope = AddressedEnvelope(remoteAddress: address, data: channel.allocator.buffer(string: text))
            channel.writeAndFlush(envelope, promise: nil)
        }
    }

    func stop() {
        task?.cancel()
        try? channel.close().wait()
    }
}
