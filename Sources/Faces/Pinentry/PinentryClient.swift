import SmartCard

/// One conversation with a pinentry program (GnuPG's pinentry, Assuan protocol): it starts the
/// program, reads its greeting, passes the terminal (OPTION ttyname/ttytype), sets the dialog's
/// texts (SETTITLE, SETDESC, SETPROMPT, SETOK, SETCANCEL, …), then asks once (CONFIRM or
/// GETPIN) and says BYE. Commands that ask nobody wait `replyTimeout`; the question waits as long
/// as the caller allows, and the dialog is told the same (SETTIMEOUT).
final class PinentryClient {
    /// What the person answered.
    enum Answer<Value> {
        case answered(Value)
        /// Cancel, "No", or the dialog closed.
        case cancelled
        case timedOut
    }

    let connection: PinentryConnection
    private let replyTimeout: Double

    init(_ program: PinentryProgram) throws(PinentryError) {
        connection = try PinentryConnection(program: program.program, arguments: program.arguments)
        replyTimeout = program.replyTimeout
        do {
            try expectOK(command: "greeting", timeout: replyTimeout)
            if let tty = program.ttyName { try set("OPTION", "ttyname=\(tty)") }
            if let type = program.ttyType { try set("OPTION", "ttytype=\(type)") }
        } catch {
            connection.finish(grace: 0)
            throw error
        }
    }

    /// A command that asks nobody (SETDESC text, …); the program must answer OK.
    func set(_ verb: String, _ text: String? = nil) throws(PinentryError) {
        try connection.send(AssuanData.command(verb, text))
        try expectOK(command: verb, timeout: replyTimeout)
    }

    /// CONFIRM: OK is yes.
    func confirm(timeout: Double) throws(PinentryError) -> Answer<Void> {
        try ask("CONFIRM", timeout: timeout) { _ in () }
    }

    /// GETPIN: the typed secret, decoded from the D line straight into locked memory.
    func getPIN(timeout: Double) throws(PinentryError) -> Answer<Secret> {
        let buffer = LockedBuffer(count: AssuanData.lineLength)
        defer { buffer.wipe() }
        return try ask("GETPIN", timeout: timeout, data: buffer) { count in
            Secret(consuming: UnsafeMutableBufferPointer(rebasing: buffer.bytes[0..<count]))
        }
    }

    /// Says BYE and lets the program end (it is killed if it does not).
    func end() {
        if (try? connection.send(AssuanData.command("BYE"))) != nil {
            _ = try? connection.readLine(timeout: 1) { _ in () }
        }
        connection.finish(grace: 1)
    }

    private func ask<Value>(
        _ verb: String, timeout: Double, data: LockedBuffer? = nil, _ value: (Int) -> Value
    ) throws(PinentryError) -> Answer<Value> {
        // The dialog closes itself when the time is up; eid waits a little longer for it to say so.
        try set("SETTIMEOUT", String(max(1, Int(timeout.rounded(.up)))))
        try connection.send(AssuanData.command(verb))
        var count = 0
        while true {
            let response = try connection.readLine(timeout: timeout + replyTimeout) {
                (line) throws(PinentryError) -> AssuanResponse in
                let response = try AssuanResponse.parse(line)
                if case .data(let offset) = response {
                    guard let data else { throw PinentryError.malformedResponse("data where none is expected") }
                    count = try AssuanData.decode(
                        UnsafeBufferPointer(rebasing: line[offset...]), into: data, at: count)
                }
                return response
            }
            switch response {
            case .ok: return .answered(value(count))
            case .comment, .status, .data: continue
            case .inquire:
                try? connection.send(AssuanData.command("CAN"))
                throw .refused(command: verb, code: 0)
            case .error(let code):
                switch AssuanResponse.ErrorKind(code: code) {
                case .cancelled, .notConfirmed: return .cancelled
                case .timedOut: return .timedOut
                case .other: throw .refused(command: verb, code: code)
                }
            }
        }
    }

    private func expectOK(command: String, timeout: Double) throws(PinentryError) {
        while true {
            let response = try connection.readLine(timeout: timeout) { (line) throws(PinentryError) in
                try AssuanResponse.parse(line)
            }
            switch response {
            case .ok: return
            case .comment, .status: continue
            case .error(let code): throw .refused(command: command, code: code)
            case .data, .inquire: throw .malformedResponse("unexpected answer to \(command)")
            }
        }
    }
}
