import RizqJSON
extension PrefValue: CustomStringConvertible {
    /// The value as compact JSON, in the suite file's format.
    public var description: String {
        (try? JSONWriter.string(self, pretty: false)) ?? "<\(kindName) not representable in JSON>"
    }
}
