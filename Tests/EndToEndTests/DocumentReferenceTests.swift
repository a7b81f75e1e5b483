import Foundation
import Testing

/// What the code and the docs point a reader to is in the repository: every `*.md` file named in
/// Sources, Tests (not their fixture data), Makefile, packaging or .ci exists; every section cited as
/// `docs/<page>.md, "<heading>"` is a heading of that page; every relative link in README.md and docs/*.md
/// leads to a file (and, with `#anchor`, to a heading) that exists. Notes kept outside the repository
/// are no reference: the facts the code relies on are written into docs/.
@Suite struct DocumentReferenceTests {
    static let root = E2E.packageRoot
    /// The examples below spell the extension through this, so that this file names no document itself.
    static let markdownExtension = ".md"

    /// The files that may name documents: the source trees and the build and packaging files, without
    /// fixture data (recorded messages, fuzz seeds; a fixture folder's Markdown is read) and without caches.
    static func scannedFiles() throws -> [String] {
        var files = ["Makefile"]
        for folder in ["Sources", "Tests", "packaging", ".ci"] {
            let base = root.appendingPathComponent(folder)
            guard let walk = FileManager.default.enumerator(atPath: base.path) else { continue }
            for case let path as String in walk {
                let parts = path.split(separator: "/")
                if parts.contains("__pycache__") { continue }
                if parts.contains(where: { $0 == "Fixtures" || $0 == "Corpus" }), !path.hasSuffix(markdownExtension) {
                    continue
                }
                var isDirectory: ObjCBool = false
                let full = base.appendingPathComponent(path).path
                if FileManager.default.fileExists(atPath: full, isDirectory: &isDirectory), !isDirectory.boolValue {
                    files.append("\(folder)/\(path)")
                }
            }
        }
        return files
    }

    /// The text of a repository file, nil when it is not UTF-8 (binary data names no document).
    static func text(_ path: String) -> String? {
        guard let data = FileManager.default.contents(atPath: root.appendingPathComponent(path).path) else {
            return nil
        }
        return String(data: data, encoding: .utf8)
    }

    static func exists(_ path: String) -> Bool {
        FileManager.default.fileExists(atPath: root.appendingPathComponent(path).path)
    }

    /// A path relative to the repository's root with `.` and `..` resolved; nil when it leaves the
    /// repository (a note beside the checkout is not in it).
    static func normalized(_ path: String) -> String? {
        var parts: [Substring] = []
        for part in path.split(separator: "/") where part != "." {
            if part == ".." {
                guard !parts.isEmpty else { return nil }
                parts.removeLast()
            } else {
                parts.append(part)
            }
        }
        return parts.joined(separator: "/")
    }

    /// `text` without URLs: a public page's address names no file of this repository.
    static func withoutURLs(_ text: String) -> String {
        text.replacingOccurrences(of: #"[A-Za-z][A-Za-z0-9+.-]*://\S+"#, with: " ", options: .regularExpression)
    }

    /// Every `*.md` name in `text` (a bare name or a path; a shell variable in front, as in
    /// `"$root/README.md"`, stands for a folder of the repository and is left out).
    static func markdownNames(in text: String) -> [String] {
        let pattern = #"(?:\$\{?[A-Za-z_][A-Za-z0-9_]*\}?/)?([A-Za-z0-9_./+-]*[A-Za-z0-9_+-]\.md)(?![A-Za-z0-9_])"#
        let regex = try! NSRegularExpression(pattern: pattern)
        let plain = withoutURLs(text)
        let range = NSRange(plain.startIndex..., in: plain)
        return regex.matches(in: plain, range: range).compactMap {
            Range($0.range(at: 1), in: plain).map { String(plain[$0]) }
        }
    }

    /// Whether `name`, found in the file `file`, is a file of the repository: relative to the file's
    /// folder, to one of the folders above it, or to the repository's root.
    static func resolves(_ name: String, from file: String) -> Bool {
        var folder = (file as NSString).deletingLastPathComponent
        while true {
            if let candidate = normalized(folder.isEmpty ? name : "\(folder)/\(name)"), exists(candidate) {
                return true
            }
            if folder.isEmpty { return false }
            folder = (folder as NSString).deletingLastPathComponent
        }
    }

    @Test func everyNamedMarkdownFileExists() throws {
        let files = try Self.scannedFiles()
        #expect(files.contains("Sources/Online/TcToken/TcToken.swift"), "the scan found \(files.count) files")
        var named = 0
        for file in files {
            guard let text = Self.text(file) else { continue }
            for name in Self.markdownNames(in: text) {
                named += 1
                #expect(Self.resolves(name, from: file), "\(file) names \(name), which is not in the repository")
            }
        }
        #expect(named > 50, "only \(named) names of .md files found: the scan is broken")
    }

    /// The scan finds an outside note in a comment and does not take it for a repository file; a
    /// URL is not taken for a name; a path relative to the file's folder is found.
    @Test func theScanTellsAnOutsideNoteFromARepositoryFile() {
        let md = Self.markdownExtension
        let comment =
            "/// See ARCHITECTURE\(md) and ../shared/PEERS\(md), https://example.org/x/README\(md), docs/protocol\(md)."
        #expect(Self.markdownNames(in: comment) == ["ARCHITECTURE\(md)", "../shared/PEERS\(md)", "docs/protocol\(md)"])
        #expect(Self.markdownNames(in: "grep -qF x \"$root/README\(md)\"") == ["README\(md)"])
        #expect(!Self.resolves("ARCHITECTURE\(md)", from: "Sources/Workflows/Auth/AuthWorkflow.swift"))
        #expect(!Self.resolves("../shared/PEERS\(md)", from: "Tests/Support/ausweisapp2.py"))
        #expect(Self.resolves("docs/protocol\(md)", from: "Sources/Workflows/Auth/AuthWorkflow.swift"))
        #expect(Self.resolves("CVCA/README\(md)", from: "Sources/EAC/GermanEIDPKI/GermanEIDPKI+Certificates.swift"))
        #expect(Self.normalized("docs/../README\(md)") == "README\(md)" && Self.normalized("docs/../../x") == nil)
    }

    /// The headings of a Markdown file, outside code blocks, as written (without the `#`s).
    static func headings(of markdown: String) -> [String] {
        var fenced = false
        var found: [String] = []
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") { fenced.toggle() }
            guard !fenced, line.hasPrefix("#") else { continue }
            let title = line.drop(while: { $0 == "#" })
            guard title.hasPrefix(" ") else { continue }
            found.append(title.trimmingCharacters(in: .whitespaces))
        }
        return found
    }

    /// Every `docs/<page>.md, "<heading>"` (also `"A" and "B"`, `"A", "B"`) in `text`, with comment
    /// markers taken out and lines joined, so that a citation may wrap.
    static func citedSections(in text: String) -> [(page: String, heading: String)] {
        let joined = text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.replacingOccurrences(of: #"^\s*(///?|#+|\*)\s?"#, with: "", options: .regularExpression)
        }.joined(separator: " ").replacingOccurrences(of: #"\s+"#, with: " ", options: .regularExpression)
        let citation = try! NSRegularExpression(
            pattern: #"(docs/[A-Za-z0-9_-]+\.md),\s*((?:"[^"]+"(?:\s*(?:,|and|to)\s*(?="))?)+)"#)
        let quoted = try! NSRegularExpression(pattern: #""([^"]+)""#)
        var found: [(String, String)] = []
        let range = NSRange(joined.startIndex..., in: joined)
        for match in citation.matches(in: joined, range: range) {
            guard let page = Range(match.range(at: 1), in: joined), let list = Range(match.range(at: 2), in: joined)
            else { continue }
            let headings = String(joined[list])
            for heading in quoted.matches(in: headings, range: NSRange(headings.startIndex..., in: headings)) {
                if let h = Range(heading.range(at: 1), in: headings) {
                    found.append((String(joined[page]), String(headings[h])))
                }
            }
        }
        return found
    }

    @Test func everyCitedSectionIsAHeadingOfItsPage() throws {
        var cited = 0
        for file in try Self.scannedFiles() + Self.documentationPages() {
            guard let text = Self.text(file) else { continue }
            for (page, heading) in Self.citedSections(in: text) {
                cited += 1
                let headings = Self.text(page).map(Self.headings(of:)) ?? []
                #expect(headings.contains(heading), "\(file) cites \(page), \"\(heading)\", which has no such heading")
            }
        }
        #expect(cited > 100, "only \(cited) cited sections found: the scan is broken")
    }

    @Test func aCitationMayWrapAndNameSeveralSections() {
        let md = Self.markdownExtension
        let comment = """
            /// the refresh URL (docs/protocol\(md), "Result on the
            /// refresh address" and "How AusweisApp reports each failure"); also docs/peers\(md), "Nowhere".
            """
        let found = Self.citedSections(in: comment).map { "\($0.page): \($0.heading)" }
        #expect(
            found == [
                "docs/protocol\(md): Result on the refresh address",
                "docs/protocol\(md): How AusweisApp reports each failure", "docs/peers\(md): Nowhere",
            ])
        let peers = Self.text("docs/peers\(md)").map(Self.headings(of:)) ?? []
        #expect(peers.contains("Known disagreements") && !peers.contains("Nowhere"))
    }

    /// README.md and every page of docs/.
    static func documentationPages() throws -> [String] {
        let docs = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("docs").path)
        return ["README.md"] + docs.filter { $0.hasSuffix(".md") }.sorted().map { "docs/\($0)" }
    }

    /// GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens.
    static func anchor(_ heading: String) -> String {
        let kept = heading.lowercased().unicodeScalars.filter {
            CharacterSet.alphanumerics.contains($0) || $0 == " " || $0 == "-" || $0 == "_"
        }
        return String(String.UnicodeScalarView(kept)).replacingOccurrences(of: " ", with: "-")
    }

    /// The anchors of a page's headings; a repeated heading's get `-1`, `-2`, … as on GitHub.
    static func anchors(of markdown: String) -> Set<String> {
        var seen: [String: Int] = [:]
        var result: Set<String> = []
        for heading in headings(of: markdown) {
            let base = anchor(heading)
            let count = seen[base, default: 0]
            result.insert(count == 0 ? base : "\(base)-\(count)")
            seen[base] = count + 1
        }
        return result
    }

    /// The targets of the inline and reference links of a Markdown text, outside code blocks.
    static func linkTargets(in markdown: String) -> [String] {
        var fenced = false
        var prose: [Substring] = []
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") { fenced.toggle() }
            if !fenced { prose.append(line) }
        }
        let text = prose.joined(separator: "\n")
        var targets: [String] = []
        for pattern in [#"\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)"#, #"(?m)^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)"#] {
            let regex = try! NSRegularExpression(pattern: pattern)
            for match in regex.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                if let target = Range(match.range(at: 1), in: text) { targets.append(String(text[target])) }
            }
        }
        return targets
    }

    @Test func everyRelativeLinkInTheDocumentationResolves() throws {
        let pages = try Self.documentationPages()
        #expect(
            pages.contains("docs/protocol\(Self.markdownExtension)")
                && pages.contains("docs/peers\(Self.markdownExtension)"))
        var relative = 0
        for page in pages {
            let text = try #require(Self.text(page))
            for target in Self.linkTargets(in: text) {
                if target.range(of: #"^[A-Za-z][A-Za-z0-9+.-]*:"#, options: .regularExpression) != nil { continue }
                relative += 1
                let parts = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
                let path = String(parts[0]).removingPercentEncoding ?? String(parts[0])
                let folder = (page as NSString).deletingLastPathComponent
                let file = path.isEmpty ? page : Self.normalized(folder.isEmpty ? path : "\(folder)/\(path)") ?? ""
                #expect(
                    !file.isEmpty && Self.exists(file), "\(page) links to \(target), which is not in the repository")
                guard parts.count == 2, file.hasSuffix(".md"), let linked = Self.text(file) else { continue }
                #expect(
                    Self.anchors(of: linked).contains(String(parts[1])),
                    "\(page) links to \(target): \(file) has no heading with that anchor")
            }
        }
        #expect(relative > 0, "no relative link found in \(pages)")
    }

    @Test func linksAndAnchorsAreReadAsGitHubReadsThem() {
        let md = Self.markdownExtension
        let page = """
            See [the protocol](docs/protocol\(md)#tctoken-validation) and [`eid serve`](#eid-serve-port-24727).
            ```
            [not a link](nowhere\(md))
            ```
            [ref]: docs/peers\(md)
            """
        #expect(
            Self.linkTargets(in: page) == [
                "docs/protocol\(md)#tctoken-validation", "#eid-serve-port-24727", "docs/peers\(md)",
            ])
        #expect(Self.anchor("eid serve: port 24727") == "eid-serve-port-24727")
        #expect(Self.anchors(of: "## A\n## A\n") == ["a", "a-1"])
    }
}
