import Foundation
#if canImport(FoundationXML)
    import FoundationXML
#endif

/// Turns an XML document into a `Value` so that the same paths address JSON and XML bodies.
///
/// The root element becomes a one-key object; an element with only text becomes a string; an element
/// with children becomes an object (repeated child names become arrays); attributes become `@name`
/// keys and mixed text becomes `#text`. So `<P><url><amount>1</amount></url></P>` is addressed as
/// `P.url.amount`.
package enum XMLValue {
    /// Parses XML text; `nil` when it is not well-formed XML.
    package static func parse(_ text: String) -> Value? {
        guard let data = text.data(using: .utf8), !data.isEmpty else { return nil }
        let builder = Builder()
        let parser = XMLParser(data: data)
        parser.delegate = builder
        parser.shouldResolveExternalEntities = false
        guard parser.parse(), let root = builder.root else { return nil }
        return .object([root.name: root.value])
    }

    private final class Element {
        let name: String
        var attributes: [String: String]
        var children: [(String, Value)] = []
        var text = ""
        init(name: String, attributes: [String: String]) {
            self.name = name
            self.attributes = attributes
        }

        var value: Value {
            let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
            if children.isEmpty && attributes.isEmpty { return .string(trimmed) }
            var object: [String: Value] = [:]
            for (key, value) in attributes { object["@" + key] = .string(value) }
            var order: [String] = []
            var grouped: [String: [Value]] = [:]
            for (name, value) in children {
                if grouped[name] == nil { order.append(name) }
                grouped[name, default: []].append(value)
            }
            for name in order {
                let values = grouped[name] ?? []
                object[name] = values.count == 1 ? values[0] : .array(values)
            }
            if !trimmed.isEmpty { object["#text"] = .string(trimmed) }
            return .object(object)
        }
    }

    private final class Builder: NSObject, XMLParserDelegate {
        var stack: [Element] = []
        var root: (name: String, value: Value)?

        func parser(
            _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
            qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]
        ) {
            stack.append(Element(name: elementName, attributes: attributeDict))
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            stack.last?.text += string
        }

        func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
            stack.last?.text += String(decoding: CDATABlock, as: UTF8.self)
        }

        func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?) {
            guard let element = stack.popLast() else { return }
            if let parent = stack.last {
                parent.children.append((element.name, element.value))
            } else {
                root = (element.name, element.value)
            }
        }
    }
}
