import PayCheckCore
import Testing

/// A `with:` value against an operation's declared shape: typos at any depth always, required members, kinds and
/// choices unless the step expects the provider to refuse it.
@Suite("Request shapes")
struct RequestShapeTests {
    static let shape = RequestShape.object([
        .required("reference", .text),
        .required("amount", .object([.required("currency", .text), .required("total", .number)])),
        .optional("items", .list(.object([.required("kind", .oneOf(["discount", "shipping"]))]))),
        .optional("metadata", .openObject),
    ])

    static func messages(_ value: Value, strict: Bool = true) -> [String] {
        shape.problems(in: value, path: "payment", strict: strict).map { $0.message + ($0.hint.map { " — \($0)" } ?? "") }
    }

    @Test("a misspelt member at any depth is named with a did-you-mean, and not again as missing")
    func typos() {
        let value: Value = [
            "refrence": "R1", "amount": ["curency": "COP", "total": 1], "items": [["knd": "discount"]], "metadata": ["anything": 1],
        ]
        #expect(
            Self.messages(value).sorted() == [
                "unknown member 'curency' in 'payment.amount' — did you mean 'currency'?",
                "unknown member 'knd' in 'payment.items[0]' — did you mean 'kind'?",
                "unknown member 'refrence' in 'payment' — did you mean 'reference'?",
            ])
        // A typo stays an error when the step expects the provider to refuse the request.
        #expect(Self.messages(value, strict: false).count == 3)
    }

    @Test("missing members, other kinds and choices are problems only when strict")
    func strictness() {
        let value: Value = ["amount": ["currency": "COP", "total": "many"], "items": [["kind": "discont"]]]
        #expect(
            Self.messages(value).sorted() == [
                "'payment' needs 'reference' — the provider refuses it without; a step that expects that refusal may leave it out",
                "'payment.amount.total' must be a number, found \"many\"",
                "'payment.items[0].kind' is 'discont', not one the provider accepts — did you mean 'discount'?",
            ])
        #expect(Self.messages(value, strict: false).isEmpty)
        #expect(Self.messages(["reference": "R", "amount": ["currency": "COP", "total": 10]]).isEmpty)
        #expect(Self.messages(.null).isEmpty)
    }

    @Test("two providers' shapes of one key merge into one that takes what either takes")
    func merging() {
        let mollie = RequestShape.object([.required("currency", .text), .required("value", .text)])
        let yuno = RequestShape.object([.required("currency", .text), .required("value", .number), .optional("captured", .number)])
        #expect(
            mollie.merged(with: yuno)
                == .object([.required("currency", .text), .required("value", .any), .optional("captured", .number)]))
        #expect(RequestShape.text.merged(with: .list(.text)) == .any)
    }
}

/// What a command prints of a note keeps its words and drops the citations of notes the user does not have.
@Suite("Notes as users read them")
struct NoteCitationTests {
    @Test("section citations go; a parenthesis keeps its other words; nothing else changes")
    func withoutSections() {
        #expect(Citation.withoutSections("paid, final (§4.4)") == "paid, final")
        #expect(Citation.withoutSections("held for capture (§4.4, §4.9); pending until captured") == "held for capture; pending until captured")
        #expect(Citation.withoutSections("awaiting confirm/cancel (§1.4 metadata, §1.7)") == "awaiting confirm/cancel (metadata)")
        #expect(Citation.withoutSections("see §3.6 for the list") == "for the list")
        #expect(Citation.withoutSections("no citation (EX is the mock's choice)") == "no citation (EX is the mock's choice)")
    }
}
