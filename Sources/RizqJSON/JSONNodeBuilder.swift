/// Builds ``JSONNode``s for ``JSONReader/parseDocument(_:loneSurrogates:)``: every member in
/// input order, every value with its byte range, numbers as written.
enum JSONNodeBuilder: JSONTreeBuilder {
    static func string(_ text: String, range: Range<Int>) -> JSONNode { JSONNode(kind: .string(text), range: range) }

    static func number(_ text: UnsafeBufferPointer<UInt8>, isInteger: Bool, range: Range<Int>) -> JSONNode? {
        JSONNode(kind: .number(String(decoding: text, as: UTF8.self)), range: range)
    }

    static func shortInteger(_ value: Int, text: UnsafeBufferPointer<UInt8>, range: Range<Int>) -> JSONNode {
        JSONNode(kind: .number(String(decoding: text, as: UTF8.self)), range: range)
    }

    static func bool(_ value: Bool, range: Range<Int>) -> JSONNode { JSONNode(kind: .bool(value), range: range) }
    static func null(range: Range<Int>) -> JSONNode { JSONNode(kind: .null, range: range) }

    static func makeMembers() -> [JSONNode.Member] { [] }

    static func add(key: String, keyOffset: Int, value: JSONNode, to members: inout [JSONNode.Member]) -> Bool {
        members.append(JSONNode.Member(key: key, keyOffset: keyOffset, value: value))
        return false
    }

    static func object(_ members: [JSONNode.Member], range: Range<Int>) -> JSONNode { JSONNode(kind: .object(members), range: range) }

    static func makeElements() -> [JSONNode] { [] }
    static func append(_ value: JSONNode, to elements: inout [JSONNode]) { elements.append(value) }
    static func array(_ elements: [JSONNode], range: Range<Int>) -> JSONNode { JSONNode(kind: .array(elements), range: range) }
}
