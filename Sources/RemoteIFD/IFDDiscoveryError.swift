/// The discovery socket could not be opened.
public enum IFDDiscoveryError: Error, Equatable, Sendable, CustomStringConvertible {
    case cannotListen(port: UInt16, String)

    public var description: String {
        switch self {
        case .cannotListen(let port, let why):
            return "cannot listen for phones on UDP port \(port): \(why); give the phone's address with --address"
        }
    }
}
