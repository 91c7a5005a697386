/// What ``JSONReader`` makes of the values it scans: one conformance per kind of result, so that
/// one parser serves them all. The reader's grammar is generic over its builder and specialized
/// for each, so a result pays only for what it keeps (the ``PrefValue`` path never computes a
/// node's range, for one).
public protocol JSONTreeBuilder {
    /// A finished JSON value.
    associatedtype Value
    /// An object's members while they are being read.
    associatedtype Members
    /// An array's elements while they are being read.
    associatedtype Elements

    static func string(_ text: String, range: Range<Int>) -> Value
    /// A number's text, already checked against JSON's grammar; `isInteger` when it has neither
    /// a fraction nor an exponent. `nil` when the result cannot hold it.
    static func number(_ text: UnsafeBufferPointer<UInt8>, isInteger: Bool, range: Range<Int>) -> Value?
    /// An integer of at most 18 digits (it cannot overflow an `Int`), whose value the reader
    /// computed as it scanned `text`: nearly every number of a suite file.
    static func shortInteger(_ value: Int, text: UnsafeBufferPointer<UInt8>, range: Range<Int>) -> Value
    static func bool(_ value: Bool, range: Range<Int>) -> Value
    static func null(range: Range<Int>) -> Value

    static func makeMembers() -> Members
    /// Adds a member read at `keyOffset` (its key's opening quote); `true` when it replaced an
    /// earlier member with the same key.
    static func add(key: String, keyOffset: Int, value: Value, to members: inout Members) -> Bool
    static func object(_ members: Members, range: Range<Int>) -> Value

    static func makeElements() -> Elements
    static func append(_ value: Value, to elements: inout Elements)
    static func array(_ elements: Elements, range: Range<Int>) -> Value
}
