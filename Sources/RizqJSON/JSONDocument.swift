/// A JSON text read as a tree of ``JSONNode``s by ``JSONReader/parseDocument(_:loneSurrogates:)``.
public struct JSONDocument: Sendable, Equatable {
    /// The text's one value.
    @usableFromInline package var root: JSONNode
    /// How many lone UTF-16 surrogate escapes were read as U+FFFD (always 0 with
    /// ``JSONReader/LoneSurrogates/reject``).
    @usableFromInline package var replacedSurrogates: Int

    /// A document whose value is `root`.
    @usableFromInline package init(root: JSONNode, replacedSurrogates: Int = 0) {
        self.root = root
        self.replacedSurrogates = replacedSurrogates
    }
}
