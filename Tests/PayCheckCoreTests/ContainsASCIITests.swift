import Foundation
import PayCheckCore
import Testing

@Suite("containsASCII: the byte search the parser uses for '{{' and 'row.'")
struct ContainsASCIITests {
    @Test(
        "finds what Foundation's contains finds, at the start, the end and after non-ASCII text",
        arguments: ["", "{", "{{", "a {{ x }}", "x{{", "é{{ row.id }}", "{ {", "row", "row.", "the row.amount", "ro w.", "rrow.", "{{{", "•{{"])
    func agrees(_ text: String) {
        #expect(text.containsASCII("{{") == text.contains("{{"), "\(text)")
        #expect(text.containsASCII("row.") == text.contains("row."), "\(text)")
    }
}
