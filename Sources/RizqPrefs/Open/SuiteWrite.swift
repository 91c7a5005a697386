/// One write of a suite file, as the memory hands it over (``SuiteMemory/beginWrite(over:)``):
/// the pending changes it carries, and what their bytes are made from.
///
/// ``OpenSuite`` carries it out under the file lock — ``encode()``, then
/// ``SuiteFile/replace(bytes:changes:over:_:)`` — and gives it back to the memory whatever
/// happened (``SuiteMemory/finishWrite(_:encoded:outcome:)``): its changes are then either in
/// the file or pending again.
struct SuiteWrite: ~Copyable {
    /// The changes taken out of the memory; pending again if the write fails.
    let changes: PendingChanges
    /// What readers saw when the write was taken: the table the bytes hold. (A copy that costs
    /// nothing unless a set comes during the write.)
    let values: SuiteTable
    /// The bytes of the last write, when there was one since the file was last read: if only
    /// values changed since, only those are encoded again.
    let previous: EncodedSuite?
    /// The schema version the file records (`nil`: none): a write never changes it.
    let schemaVersion: MigrationMark?
    /// The version of the file the bytes go over (`nil`: no file).
    let over: FileStamp?
    /// Arrays to encode into, instead of allocating (``EncodedSuite/Buffers``).
    var spare: EncodedSuite.Buffers

    /// The file's bytes for ``values``: the one place a write makes them. From ``previous``
    /// when only values changed since it (the changed values encoded, the rest copied), else
    /// the table whole, in the last write's key order while it is still the table's.
    /// - Throws: ``SuiteStoreError/invalid(_:)`` when a value cannot be encoded.
    mutating func encode() throws(SuiteStoreError) -> EncodedSuite {
        do {
            if let previous, let updated = try previous.updated(to: values, reusing: &spare) { return updated }
        } catch {
            throw .invalid(error)
        }
        return try EncodedSuite(suite: values, reusing: previous?.order, schemaVersion: schemaVersion)
    }
}
