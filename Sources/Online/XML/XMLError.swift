/// Why a document was refused before any of its content was looked at. The input is never
/// quoted: it may come from anyone on the network.
public enum XMLError: Error, Equatable, Sendable {
    /// The document is longer than the limit for its kind (bytes).
    case tooLarge(limit: Int)
    /// The document is empty.
    case empty
    /// Not well-formed XML; `line` is where libxml2 found the first error (0 if unknown).
    case notWellFormed(line: Int)
    /// The document has a document type declaration (`<!DOCTYPE`). eid never reads DTDs, so
    /// no entity can be declared, loaded from elsewhere (XXE) or expanded (billion laughs).
    case documentTypeDeclared
    /// Elements nest deeper than the limit.
    case tooDeep(limit: Int)
    /// More elements than the limit.
    case tooManyElements(limit: Int)
    /// libxml2 could not be loaded (it is loaded on first use): what is missing, what to install.
    case parserMissing(String)
}

extension XMLError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .tooLarge(let limit): return "the XML document is longer than \(limit) bytes"
        case .empty: return "the XML document is empty"
        case .notWellFormed(let line):
            return line > 0
                ? "the XML document is not well-formed (line \(line))" : "the XML document is not well-formed"
        case .documentTypeDeclared: return "the XML document declares a document type (DTD), which eid refuses"
        case .tooDeep(let limit): return "the XML document nests elements deeper than \(limit)"
        case .tooManyElements(let limit): return "the XML document has more than \(limit) elements"
        case .parserMissing(let problem): return problem
        }
    }
}
