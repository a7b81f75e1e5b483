import Foundation
import Testing
import Workflows

/// The exit statuses README.md and man/eid.1 document are exactly those `ExitStatus` declares:
/// a status added, removed or renumbered in the code without the documentation fails here.
@Suite struct ExitStatusDocumentationTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    func text(_ path: String) throws -> String {
        try String(contentsOf: Self.root.appendingPathComponent(path), encoding: .utf8)
    }

    /// `public static let NAME: Int32 = N` (7 words) in Sources/Workflows/ExitStatus.swift, by name.
    func declared() throws -> [String: Int32] {
        var statuses: [String: Int32] = [:]
        for line in try text("Sources/Workflows/ExitStatus.swift").split(separator: "\n") {
            let words = line.split(separator: " ")
            guard words.starts(with: ["public", "static", "let"]), words.count == 7, words[6].allSatisfy(\.isNumber)
            else { continue }
            statuses[String(words[3].dropLast())] = Int32(words[6])
        }
        return statuses
    }

    @Test func theDeclaredStatusesAreTheCodesOnes() throws {
        // The source parse reads what the compiler reads (a check that the parse above is right).
        let expected: [String: Int32] = [
            "success": ExitStatus.success, "internalError": ExitStatus.internalError,
            "cardState": ExitStatus.cardState, "serviceUnavailable": ExitStatus.serviceUnavailable,
            "cardError": ExitStatus.cardError, "cancelled": ExitStatus.cancelled, "refused": ExitStatus.refused,
            "network": ExitStatus.network, "usage": ExitStatus.usage, "interrupted": ExitStatus.interrupted,
        ]
        #expect(try declared() == expected)
    }

    @Test func readmeTableListsEveryStatusOnce() throws {
        let readme = try text("README.md")
        let section = try #require(readme.range(of: "### Exit status"))
        var documented: [Int32] = []
        for line in readme[section.upperBound...].split(separator: "\n").drop(while: { !$0.hasPrefix("|") }) {
            guard line.hasPrefix("|") else { break }
            let cell = line.dropFirst().prefix { $0 != "|" }.trimmingCharacters(in: .whitespaces)
            if let status = Int32(cell) { documented.append(status) }
        }
        let statuses = try declared().values.sorted()
        #expect(documented == statuses)
    }

    @Test func manPageListsEveryStatusOnce() throws {
        let man = try text("man/eid.1")
        let start = try #require(man.range(of: ".SH EXIT STATUS"))
        let rest = man[start.upperBound...]
        let end = rest.range(of: "\n.SH ")?.lowerBound ?? rest.endIndex
        let lines = rest[..<end].split(separator: "\n", omittingEmptySubsequences: false)
        var documented: [Int32] = []
        for (index, line) in lines.enumerated() where line == ".TP" && index + 1 < lines.count {
            let next = lines[index + 1]
            if next.hasPrefix(".B "), let status = Int32(next.dropFirst(3)) { documented.append(status) }
        }
        let statuses = try declared().values.sorted()
        #expect(documented == statuses)
    }
}
