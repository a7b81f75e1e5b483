/// Why the local service could not start.
public enum LocalServiceError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Binding failed (the port is taken, or the address is not on this machine).
    case cannotListen(host: String, port: Int)
    /// A socket passed by socket activation could not be used.
    case cannotAdopt(descriptor: Int32)
    /// The port could not be written to the port file.
    case cannotWritePortFile(path: String)

    public var description: String {
        switch self {
        case .cannotListen(let host, let port):
            return "cannot listen on \(host) port \(port): is another eID client (AusweisApp) running? "
                + "Stop it, or choose another --port"
        case .cannotAdopt(let descriptor):
            return "the socket passed as file descriptor \(descriptor) (LISTEN_FDS) is not a listening TCP socket"
        case .cannotWritePortFile(let path):
            return "cannot write the port to \(path): check that its directory exists and is writable"
        }
    }
}
