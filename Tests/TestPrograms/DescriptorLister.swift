import Foundation

/// A program that writes down the descriptors it was started with: one line `FD TARGET` each
/// (the target as /proc/self/fd shows it: a path, `pipe:[…]`, `socket:[…]`). Started by eid in
/// place of a helper program, it shows what of eid's the helper inherits.
///
/// Python lists /proc/self/fd; the descriptor of that listing is closed again before the targets
/// are read, so it drops out. The list is written under a temporary name and renamed, so a
/// reader never sees half of it.
public enum DescriptorLister {
    /// A shell command line that lists the descriptors of the shell that runs it (a child inherits
    /// them all, close-on-exec ones excepted, which the shell's own are) into `path`.
    public static func command(writingTo path: String) -> String {
        let program = """
            import os, sys
            fds = []
            for name in os.listdir("/proc/self/fd"):
                try:
                    fds.append(name + " " + os.readlink("/proc/self/fd/" + name))
                except OSError:
                    pass
            with open(sys.argv[1] + ".partial", "w") as out:
                out.write("".join(line + "\\n" for line in fds))
            os.rename(sys.argv[1] + ".partial", sys.argv[1])
            """
        return "/usr/bin/python3 -c '\(program)' '\(path)'"
    }

    /// A program (for `ExecutableFile.write`) that lists its own descriptors into `path` and ends with 0.
    public static func script(writingTo path: String) -> String {
        "#!/bin/sh\nexec \(command(writingTo: path))\n"
    }

    public enum Failure: Error, CustomStringConvertible {
        case notWritten(path: String, seconds: Double)
        case unreadable(line: String)

        public var description: String {
            switch self {
            case .notWritten(let path, let seconds): return "no descriptor list at \(path) after \(seconds) s"
            case .unreadable(let line): return "not a descriptor line: \(line)"
            }
        }
    }

    /// The list the program wrote to `file` (descriptor: target), waiting up to `timeout` seconds
    /// for it to appear.
    public static func read(_ file: URL, timeout: Double = 30) throws -> [Int32: String] {
        let deadline = ProcessInfo.processInfo.systemUptime + timeout
        while !FileManager.default.fileExists(atPath: file.path) {
            guard ProcessInfo.processInfo.systemUptime < deadline else {
                throw Failure.notWritten(path: file.path, seconds: timeout)
            }
            usleep(20_000)
        }
        var open: [Int32: String] = [:]
        for line in try String(contentsOf: file, encoding: .utf8).split(separator: "\n") {
            let parts = line.split(separator: " ", maxSplits: 1)
            guard parts.count == 2, let fd = Int32(parts[0]) else { throw Failure.unreadable(line: String(line)) }
            open[fd] = String(parts[1])
        }
        return open
    }
}
