import LocalService
import Testing

/// sd_listen_fds(3): the sockets are this process's only when LISTEN_PID names it.
@Suite struct SocketActivationTests {
    @Test func theDescriptorsFromThreeOnWhenThePIDIsOurs() {
        #expect(SocketActivation.descriptors(environment: ["LISTEN_PID": "42", "LISTEN_FDS": "2"], pid: 42) == [3, 4])
        #expect(SocketActivation.descriptors(environment: ["LISTEN_PID": "42", "LISTEN_FDS": "1"], pid: 42) == [3])
    }

    @Test func noneForAnotherProcessOrWithoutCount() {
        #expect(SocketActivation.descriptors(environment: ["LISTEN_PID": "41", "LISTEN_FDS": "1"], pid: 42).isEmpty)
        #expect(SocketActivation.descriptors(environment: ["LISTEN_FDS": "1"], pid: 42).isEmpty)
        #expect(SocketActivation.descriptors(environment: ["LISTEN_PID": "42"], pid: 42).isEmpty)
        #expect(SocketActivation.descriptors(environment: ["LISTEN_PID": "42", "LISTEN_FDS": "0"], pid: 42).isEmpty)
        #expect(SocketActivation.descriptors(environment: ["LISTEN_PID": "42", "LISTEN_FDS": "x"], pid: 42).isEmpty)
        #expect(SocketActivation.descriptors(environment: [:], pid: 42).isEmpty)
    }
}
