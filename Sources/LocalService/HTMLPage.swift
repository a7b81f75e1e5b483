/// The HTML error pages of the local service. Every text that goes in is escaped, so nothing
/// from a request can act as markup.
public enum HTMLPage {
    /// A page with the status line as title and `sentence` as text.
    public static func render(status: Int, reason: String, sentence: String) -> String {
        let title = escaped("\(status) \(reason)")
        return """
            <!DOCTYPE html>
            <html><head><meta charset="utf-8"><title>\(title)</title></head>
            <body><h1>\(title)</h1><p>\(escaped(sentence))</p><p>eid</p></body></html>

            """
    }

    /// The character references for the characters that are markup.
    static let references: [Character: String] = [
        "&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;", "'": "&#39;",
    ]

    /// `text` with `&`, `<`, `>`, `"` and `'` as character references.
    public static func escaped(_ text: String) -> String {
        text.reduce(into: "") { out, character in
            if let reference = references[character] { out += reference } else { out.append(character) }
        }
    }
}
