import Testing

@testable import Online

@Suite struct XMLTreeParserTests {
    let parser = XMLTreeParser(maximumSize: 4096)

    @Test func readsNamespacesAttributesTextAndCDATA() throws {
        let root = try parser.parse(
            Array(
                """
                <a:root xmlns:a="urn:a" xmlns:b="urn:b" b:x="1" y="&lt;2&gt;"><!-- c --><b:child>one &amp; <![CDATA[<two>]]></b:child><plain/></a:root>
                """.utf8))
        #expect(root.name == "root" && root.namespace == "urn:a")
        #expect(root.attribute("x", namespace: "urn:b") == "1")
        #expect(root.attribute("y") == "<2>")
        #expect(root.children.count == 2)
        #expect(root.children[0].namespace == "urn:b" && root.children[0].text == "one & <two>")
        #expect(root.children[1].namespace == nil)
    }

    @Test func writerOutputReadsBackUnchanged() throws {
        let tricky = "a & b < c > d \"e\" 'f'\ttab\r\nline ü 😀"
        let tree = XMLElement(
            "root", namespace: "urn:x",
            attributes: [XMLAttribute("v", value: tricky), XMLAttribute("w", namespace: "urn:y", value: "1")],
            children: [
                XMLElement.text("in", namespace: "urn:x", tricky), XMLElement("free", namespace: nil),
                XMLElement("other", namespace: "urn:z", children: [XMLElement.text("inner", namespace: "urn:z", "t")]),
            ])
        let writer = XMLWriter(prefixes: [.init("y", "urn:y")], unprefixedNamespaces: [])
        #expect(try parser.parse(Array(writer.document(tree).utf8)) == tree)
    }

    @Test func writerReplacesCharactersXMLCannotCarry() throws {
        let tree = XMLElement.text("root", namespace: nil, "a\u{1}b")
        let back = try parser.parse(Array(XMLWriter(prefixes: []).document(tree).utf8))
        #expect(back.text == "a\u{FFFD}b")
    }

    @Test func refusesMalformedXML() {
        for text in ["<a>", "<a></b>", "no xml", "<a x='1' x='2'/>", "<a>&undefined;</a>", "<a/><b/>", "\u{0}<a/>"] {
            #expect(throws: XMLError.self, "\(text)") { try parser.parse(Array(text.utf8)) }
        }
        #expect(throws: XMLError.empty) { try parser.parse([]) }
    }

    @Test func refusesAnyDocumentTypeDeclaration() {
        for text in [
            "<!DOCTYPE a><a/>", "<!DOCTYPE a [<!ENTITY e 'x'>]><a>&e;</a>",
            "<!DOCTYPE a SYSTEM \"file:///etc/passwd\"><a/>",
        ] {
            #expect(throws: XMLError.documentTypeDeclared, "\(text)") { try parser.parse(Array(text.utf8)) }
        }
    }

    @Test(arguments: ["attack_externalEntity", "attack_externalDTD", "attack_parameterEntity", "attack_billionLaughs"])
    func refusesEntityAttacksUnread(name: String) throws {
        let bytes = try OnlineFixture.bytes(name)
        let clock = ContinuousClock()
        let elapsed = clock.measure {
            #expect(throws: XMLError.documentTypeDeclared) {
                try XMLTreeParser(maximumSize: 1 << 20).parse(bytes)
            }
        }
        // Expanding the billion laughs would take far longer (and gigabytes): 10 s leaves room for a loaded machine.
        #expect(elapsed < .seconds(10), "refused before any expansion")
    }

    @Test func refusesOverLongDocumentsUnread() {
        let long = Array(("<a>" + String(repeating: "x", count: 4096) + "</a>").utf8)
        #expect(throws: XMLError.tooLarge(limit: 4096)) { try parser.parse(long) }
    }

    @Test func refusesDeepNestingAndTooManyElements() {
        let deep = String(repeating: "<a>", count: 40) + String(repeating: "</a>", count: 40)
        #expect(throws: XMLError.tooDeep(limit: 32)) { try parser.parse(Array(deep.utf8)) }
        let wide = "<a>" + String(repeating: "<b/>", count: 50) + "</a>"
        #expect(throws: XMLError.tooManyElements(limit: 10)) {
            try XMLTreeParser(maximumSize: 4096, maximumElements: 10).parse(Array(wide.utf8))
        }
    }

    @Test func errorsDoNotQuoteTheInput() {
        let secretish = "<a>0123456789SECRET"
        do {
            _ = try parser.parse(Array(secretish.utf8))
            Issue.record("parsed")
        } catch {
            #expect(!"\(error)".contains("SECRET"))
        }
    }
}
