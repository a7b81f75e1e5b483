import LocalService
import Testing

@Suite struct HTMLPageTests {
    @Test func markupFromARequestIsEscaped() {
        let page = HTMLPage.render(
            status: 400, reason: "Bad Request", sentence: #"<script>alert("x")</script> & 'y'"#)
        #expect(!page.contains("<script>"))
        #expect(page.contains("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;y&#39;"))
        #expect(page.contains("<title>400 Bad Request</title>"))
    }

    @Test func plainTextStaysAsItIs() {
        #expect(HTMLPage.escaped("The tcTokenURL is empty.") == "The tcTokenURL is empty.")
        #expect(HTMLPage.escaped("Ümlaut €") == "Ümlaut €")
    }
}
