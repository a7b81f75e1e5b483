import SmartCard

/// Ports for this helper's test servers: 46100-46199 (the range of this worktree's tests), handed out in turn.
enum IFDTestPorts {
    static let range = 46100...46199
    private static let next = Locked(0)

    /// Runs `bind` with ports of the range until one works; the port and what `bind` made.
    static func bind<T>(_ bind: (Int) throws -> T) throws -> (T, Int) {
        var lastError: (any Error)?
        for _ in 0..<range.count {
            let port = next.withLock { offset -> Int in
                defer { offset = (offset + 1) % range.count }
                return range.lowerBound + offset
            }
            do { return (try bind(port), port) } catch { lastError = error }
        }
        throw lastError ?? IFDTestError.noFreePort
    }
}

enum IFDTestError: Error {
    case noFreePort
    case unexpected(String)
}
