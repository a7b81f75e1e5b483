/// What keeps the simulated phone from starting, each with what to do.
public enum PhoneError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The state directory (the phone's key and certificate) cannot be made or read.
    case stateDirectory(path: String, reason: String)
    /// The paired-clients directory cannot be made or written.
    case pairedDirectory(path: String, reason: String)
    /// OpenSSL could not make the phone's key and certificate, or refused them.
    case tlsSetup
    /// The listening socket or the announcement socket could not be opened.
    case cannotListen(address: String, reason: String)

    public var description: String {
        switch self {
        case .stateDirectory(let path, let reason):
            return "the phone's state directory \(path): \(reason); give a writable --ifd-state-dir"
        case .pairedDirectory(let path, let reason):
            return "the paired-clients directory \(path): \(reason); give a writable --paired-dir"
        case .tlsSetup:
            return "OpenSSL could not make or load the phone's TLS key and certificate; delete the state directory's "
                + "key.pem and certificate.pem to make new ones"
        case .cannotListen(let address, let reason):
            return "cannot listen on \(address): \(reason); choose another --ifd-listen address or port"
        }
    }
}
