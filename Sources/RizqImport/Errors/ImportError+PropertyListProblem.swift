#if Secrets
extension ImportError {
    /// Why a file could not be read as a `defaults` property list
    /// (``ImportError/DumpProblem/propertyList(_:)``). Nothing is ever written when one of these is
    /// thrown; none holds a value from the file.
    ///
    /// ```swift
    /// do {
    ///     _ = try ImportDump(contentsOfFile: "com.rizq.app.plist")
    /// } catch .dump(.propertyList(let problem)) {
    ///     print(problem)   // "com.rizq.app.plist, byte 8200: not a valid binary property list: …"
    /// }
    /// ```
    public struct PropertyListProblem: Sendable, Equatable, CustomStringConvertible {
        /// The two on-disk encodings of a property list.
        public enum Encoding: String, Sendable, Codable {
            /// `<?xml …?><plist version="1.0">…`: what Foundation's `UserDefaults` writes on Linux,
            /// and `defaults export` on a Mac.
            case xml
            /// `bplist00…`: what macOS and iOS keep in `Library/Preferences`.
            case binary
        }

        /// What kind of problem it is.
        public enum Kind: Sendable, Equatable {
            /// The bytes are not a property list at all (neither `bplist00` nor XML).
            case notPropertyList
            /// The file ends before the property list does.
            case truncated
            /// The property list breaks its format at ``ImportError/PropertyListProblem/offset``.
            case malformed
            /// A well-formed property list whose top level is not a dictionary of key → value.
            case notDictionary
            /// A property list format this reader does not read (another `bplist` version, an XML
            /// encoding other than UTF-8 or UTF-16).
            case unsupported
        }

        /// The file, or `nil` for bytes that came from elsewhere.
        public var file: String?
        /// Which encoding the input is in; `nil` when it is not a property list.
        public var encoding: Encoding?
        /// What kind of problem it is.
        public var kind: Kind
        /// The byte offset of the problem, when there is one place to point at.
        public var offset: Int?
        /// For XML: the line and column of ``offset``.
        public var position: SourcePosition?
        /// What is wrong, e.g. "expected </dict> but found </array>".
        public var reason: String

        /// An error; `position` is for XML input, where lines mean something.
        public init(file: String?, encoding: Encoding?, kind: Kind, offset: Int? = nil, position: SourcePosition? = nil, reason: String) {
            self.file = file
            self.encoding = encoding
            self.kind = kind
            self.offset = offset
            self.position = position
            self.reason = reason
        }

        /// One line: where, what, and what to do.
        public var description: String {
            var place = file ?? "the property list"
            if let position {
                place += ", \(position)"
            } else if let offset {
                place += ", byte \(offset)"
            }
            let what: String
            switch encoding {
            case .xml: what = "an XML property list"
            case .binary: what = "a binary property list"
            case nil: what = "a property list"
            }
            let again = "nothing was imported: copy the file again from the device or backup, or export it with `defaults export DOMAIN file.plist` on the Mac"
            switch kind {
            case .notPropertyList:
                return "\(place): not a property list: \(reason); nothing was imported: give an XML or binary .plist, as `defaults export DOMAIN file.plist` writes it or as an app's Library/Preferences holds it"
            case .truncated:
                return "\(place): \(what) that is cut short or damaged: \(reason); \(again)"
            case .malformed:
                return "\(place): not valid as \(what): \(reason); \(again)"
            case .notDictionary:
                return "\(place): \(reason), but a defaults property list is a dictionary of key → value; nothing was imported: give the plist of an app's preferences"
            case .unsupported:
                return "\(place): \(reason); nothing was imported: convert it to XML with `plutil -convert xml1 file.plist` on a Mac"
            }
        }
    }
}
#endif
