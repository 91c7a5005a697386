import Foundation

/// A strict, fast UTF-8 JSON reader, generic over what it builds (``JSONTreeBuilder``): the
/// suite store's values (RizqPrefs' `PrefValueBuilder`), or a tree of ``JSONNode``s that keeps
/// member order, repeated keys, positions and numbers as written.
///
/// Its grammar is `@inlinable`, so that the module whose builder it runs specializes it for that
/// builder: a suite file is read as fast as if the reader were written for it. The types of this
/// module are `public` and their members `package` (RizqJSON is no product, so nothing of it
/// reaches an app): Swift 6.3 inlines the `@inlinable` members of a `package` type across modules
/// only when the type itself is public (with a `package` type, opening a 100,000-key suite took
/// 20% more instructions: every `@inline(__always)` scanner became a call).
///
/// It keeps the types that Foundation's readers lose: `1.0` reads as `.double(1.0)` and `1` as
/// `.int(1)`; integers use the full 64-bit range; `{"$date": …}` and `{"$data": …}` become
/// `.date` and `.data`. It refuses what is not JSON (trailing commas, comments, single quotes,
/// invalid UTF-8, lone surrogates, NaN) with a ``JSONReader/Failure`` that gives the byte offset,
/// line and column of the problem.
///
/// ```swift
/// let value = try JSONReader.parse(Array(#"{"streak": 7}"#.utf8))
/// let tree = try JSONReader.parseDocument(Array(#"{"b": 1, "a": 2}"#.utf8)).root  // b before a
/// ```
public struct JSONReader {
    /// Why a text is not JSON, and where.
    public struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// What is wrong, e.g. "expected ',' or '}' after an object member".
        @usableFromInline package var reason: String
        /// Zero-based byte offset of the problem in the input.
        @usableFromInline package var offset: Int
        /// One-based line of the problem.
        @usableFromInline package var line: Int
        /// One-based column (in bytes) of the problem.
        @usableFromInline package var column: Int
        /// What is wrong, as data (`nil` for a failure made by hand).
        @usableFromInline package var problem: JSONProblem?

        /// A failure at a position; `problem` is `nil` for one made by hand.
        @inlinable package init(reason: String, offset: Int, line: Int, column: Int, problem: JSONProblem? = nil) {
            self.reason = reason
            self.offset = offset
            self.line = line
            self.column = column
            self.problem = problem
        }

        /// "line L, column C (byte O): reason".
        public var description: String { "line \(line), column \(column) (byte \(offset)): \(reason)" }
    }

    /// What to do with a `\u` escape of half a UTF-16 surrogate pair that has no other half.
    public enum LoneSurrogates: Sendable {
        /// Refuse the text: it is not valid JSON (RFC 8259 leaves it open; Unicode text has no
        /// such character).
        case reject
        /// Read it as U+FFFD and count it in ``JSONDocument/replacedSurrogates``: JavaScript
        /// strings can hold half a pair (an emoji cut in two) and `JSON.stringify` writes it.
        case replace
    }

    /// Nesting deeper than this is refused, so that a hostile file cannot exhaust the stack.
    @usableFromInline package static let maximumDepth = 512

    // The scanner's state, shared with JSONReader+Scanning.swift.
    @usableFromInline package let bytes: UnsafeBufferPointer<UInt8>
    @usableFromInline package var index = 0
    @usableFromInline package var depth = 0
    @usableFromInline package let loneSurrogates: LoneSurrogates
    @usableFromInline package var replacedSurrogates = 0
    /// Keys that occurred more than once in the top-level object (the last occurrence wins, as
    /// in JavaScript).
    @usableFromInline package var duplicateTopLevelKeys: [String] = []

    @inlinable package init(_ bytes: UnsafeBufferPointer<UInt8>, loneSurrogates: LoneSurrogates) {
        self.bytes = bytes
        self.loneSurrogates = loneSurrogates
    }

    /// Parses one JSON text into a tree of ``JSONNode``s, which keeps what ``PrefValue`` drops:
    /// the order of object members, every occurrence of a repeated key, where each value sits
    /// in `data`, and numbers as written. The text must be JSON by the same strict rules as
    /// for ``parse(_:)``; `$date`/`$data` tags are left as they are.
    /// - Parameter loneSurrogates: whether half a surrogate pair fails the parse (the default)
    ///   or reads as U+FFFD.
    /// - Throws: ``Failure`` with the position of the first problem.
    @usableFromInline package static func parseDocument(_ data: some ContiguousBytes, loneSurrogates: LoneSurrogates = .reject) throws(Failure) -> JSONDocument {
        let read = data.withUnsafeBytes { raw in
            Self.read(raw.bindMemory(to: UInt8.self), into: JSONNodeBuilder.self, loneSurrogates: loneSurrogates)
        }
        let result = try read.get()
        return JSONDocument(root: result.value, replacedSurrogates: result.replacedSurrogates)
    }

    /// Parses a Swift string like ``parseDocument(_:loneSurrogates:)``.
    @usableFromInline package static func parseDocument(_ text: String, loneSurrogates: LoneSurrogates = .reject) throws(Failure) -> JSONDocument {
        try parseDocument(Array(text.utf8), loneSurrogates: loneSurrogates)
    }

    // MARK: - Grammar

    public struct Read<Value> {
        @usableFromInline package var value: Value
        @usableFromInline package var duplicateKeys: [String]
        @usableFromInline package var replacedSurrogates: Int

        @inlinable package init(value: Value, duplicateKeys: [String], replacedSurrogates: Int) {
            self.value = value
            self.duplicateKeys = duplicateKeys
            self.replacedSurrogates = replacedSurrogates
        }
    }

    // Generic over the builder only, not over the caller's bytes type, so that it is specialized
    // for each builder even where the caller is not.
    //
    // `envelope`: how many levels of containers around the values a file holds do not count
    // against ``maximumDepth`` — a format that keeps each suite value two objects deeper than a
    // suite file does (device sync's replicas and state) reads every value a suite holds.
    @inlinable package static func read<Builder: JSONTreeBuilder>(
        _ bytes: UnsafeBufferPointer<UInt8>, into _: Builder.Type, loneSurrogates: LoneSurrogates, envelope: Int = 0
    ) -> Result<Read<Builder.Value>, Failure> {
        var reader = JSONReader(bytes, loneSurrogates: loneSurrogates)
        reader.depth = -max(0, min(envelope, 64))
        do {
            let value = try reader.readDocument { reader throws(Failure) in try reader.readValue(Builder.self, topLevel: true) }
            return .success(Read(value: value, duplicateKeys: reader.duplicateTopLevelKeys, replacedSurrogates: reader.replacedSurrogates))
        } catch {
            return .failure(error)
        }
    }

    /// Reads the whole text: an optional byte order mark, white space, what `readTop` reads,
    /// white space, and nothing else.
    @inlinable package mutating func readDocument<Top>(_ readTop: (inout JSONReader) throws(Failure) -> Top) throws(Failure) -> Top {
        skipWhitespace()
        if bytes.count >= 3, index == 0, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
            index = 3
            skipWhitespace()
        }
        guard index < bytes.count else { throw fail(.noValue) }
        let value = try readTop(&self)
        skipWhitespace()
        guard index == bytes.count else { throw fail(.trailingText) }
        return value
    }

    @inlinable package mutating func readValue<Builder: JSONTreeBuilder>(_: Builder.Type, topLevel: Bool = false) throws(Failure) -> Builder.Value {
        guard index < bytes.count else { throw fail(.truncated(.value)) }
        let start = index
        switch bytes[index] {
        case UInt8(ascii: "{"):
            return try readObject(Builder.self, topLevel: topLevel)
        case UInt8(ascii: "["):
            return try readArray(Builder.self)
        case UInt8(ascii: "\""):
            let text = try scanString()
            return Builder.string(text, range: start..<index)
        case UInt8(ascii: "t"):
            try scanWord("true")
            return Builder.bool(true, range: start..<index)
        case UInt8(ascii: "f"):
            try scanWord("false")
            return Builder.bool(false, range: start..<index)
        case UInt8(ascii: "n"):
            try scanWord("null")
            return Builder.null(range: start..<index)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            if let value = scanShortInteger() {
                return Builder.shortInteger(value, text: UnsafeBufferPointer(rebasing: bytes[start..<index]), range: start..<index)
            }
            let isInteger = try scanNumber()
            let text = UnsafeBufferPointer(rebasing: bytes[start..<index])
            guard let value = Builder.number(text, isInteger: isInteger, range: start..<index) else {
                index = start
                throw fail(.numberOutOfRange(String(decoding: text, as: UTF8.self)))
            }
            return value
        default:
            throw fail(.notAValue(bytes[index]))
        }
    }

    @inlinable package mutating func readObject<Builder: JSONTreeBuilder>(_: Builder.Type, topLevel: Bool) throws(Failure) -> Builder.Value {
        var members = Builder.makeMembers()
        var duplicates: [String] = []
        let range = try readMembers(Builder.self) { key, keyOffset, value in
            if Builder.add(key: key, keyOffset: keyOffset, value: value, to: &members), topLevel { duplicates.append(key) }
        }
        duplicateTopLevelKeys += duplicates
        return Builder.object(members, range: range)
    }

    /// Reads an object, `{` to `}`, handing each member to `add` (its key, the offset of the
    /// key's opening quote, its value); returns where the object is.
    @inlinable package mutating func readMembers<Builder: JSONTreeBuilder>(
        _: Builder.Type, _ add: (String, Int, Builder.Value) -> Void
    ) throws(Failure) -> Range<Int> {
        let start = index
        guard try openObject() else { return start..<index }
        repeat {
            try expectKey()
            let keyOffset = index
            let key = try scanString()
            try expectColon()
            add(key, keyOffset, try readValue(Builder.self))
        } while try nextMember()
        return start..<index
    }

    /// Enters the object whose `{` is at `index` and moves past it; `false` when the object is
    /// empty (`{}`, then already left and moved past its `}`).
    @inline(__always)
    @inlinable package mutating func openObject() throws(Failure) -> Bool {
        try enter()
        index += 1
        skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "}") else { return true }
        index += 1
        depth -= 1
        return false
    }

    /// Moves to the opening quote of a member's key, or fails.
    @inline(__always)
    @inlinable package mutating func expectKey() throws(Failure) {
        skipWhitespace()
        guard index < bytes.count else { throw fail(.truncated(.object)) }
        guard bytes[index] == UInt8(ascii: "\"") else { throw fail(.keyNotString(bytes[index])) }
    }

    /// Moves past the `:` after a member's key and the whitespace after it, or fails.
    @inline(__always)
    @inlinable package mutating func expectColon() throws(Failure) {
        skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
            throw fail(.missingColon(found: index < bytes.count ? bytes[index] : nil))
        }
        index += 1
        skipWhitespace()
    }

    /// After a member's value: `true` past a `,` (another member follows), `false` past the
    /// object's `}` (then left); fails on anything else.
    @inline(__always)
    @inlinable package mutating func nextMember() throws(Failure) -> Bool {
        skipWhitespace()
        guard index < bytes.count else { throw fail(.truncated(.object)) }
        if bytes[index] == UInt8(ascii: ",") {
            index += 1
            return true
        }
        guard bytes[index] == UInt8(ascii: "}") else { throw fail(.missingCommaOrBrace(found: bytes[index])) }
        index += 1
        depth -= 1
        return false
    }

    @inlinable package mutating func readArray<Builder: JSONTreeBuilder>(_: Builder.Type) throws(Failure) -> Builder.Value {
        let start = index
        try enter()
        index += 1
        var elements = Builder.makeElements()
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            depth -= 1
            return Builder.array(elements, range: start..<index)
        }
        while true {
            skipWhitespace()
            Builder.append(try readValue(Builder.self), to: &elements)
            skipWhitespace()
            guard index < bytes.count else { throw fail(.truncated(.array)) }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                continue
            }
            guard bytes[index] == UInt8(ascii: "]") else { throw fail(.missingCommaOrBracket(found: bytes[index])) }
            index += 1
            break
        }
        depth -= 1
        return Builder.array(elements, range: start..<index)
    }

    @inlinable package mutating func enter() throws(Failure) {
        depth += 1
        guard depth <= Self.maximumDepth else { throw fail(.tooDeep) }
    }
}

extension JSONReader.Failure {
    /// A failure at `offset` of `bytes`, with its line and column (only computed on failure).
    @inlinable package init(_ problem: JSONProblem, at offset: Int, in bytes: UnsafeBufferPointer<UInt8>) {
        var line = 1
        var lineStart = 0
        let end = min(offset, bytes.count)
        for i in 0..<end where bytes[i] == 0x0A {
            line += 1
            lineStart = i + 1
        }
        self.init(reason: problem.reason, offset: offset, line: line, column: end - lineStart + 1, problem: problem)
    }
}
