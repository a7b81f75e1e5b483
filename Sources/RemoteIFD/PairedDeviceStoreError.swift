/// What can go wrong with the paired phones' files.
public enum PairedDeviceStoreError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A file's content is not a paired phone (the reason).
    case corrupt(String)
    /// A file in the store is not readable as a paired phone (its path and why).
    case unreadable(path: String, String)
    /// The directory or a file cannot be made or written (path, errno text).
    case cannotWrite(path: String, String)
    /// No paired phone has that name.
    case notPaired(String)
    /// The config directory is unknown: neither XDG_CONFIG_HOME nor HOME is set.
    case noConfigDirectory

    public var description: String {
        switch self {
        case .corrupt(let why): return why
        case .unreadable(let path, let why):
            return "\(path) is not a paired phone (\(why)); delete it and pair the phone again with 'eid pair'"
        case .cannotWrite(let path, let why): return "cannot write \(path): \(why)"
        case .notPaired(let name): return "no paired phone is named \(name); 'eid pair --list' shows the paired phones"
        case .noConfigDirectory:
            return "neither XDG_CONFIG_HOME nor HOME is set: eid does not know where to keep phones"
        }
    }
}
