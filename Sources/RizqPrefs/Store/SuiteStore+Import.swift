import Foundation
import RizqJSON

/// What ``SuiteStore/importJSON(_:replacing:salvaging:)`` did.
public struct SuiteImportResult: Sendable, Equatable {
    /// The keys set (or, for `null`, removed).
    public var keyCount: Int
    /// Keys the text held more than once (the last value won), in order.
    public var repeatedKeys: [String]
    /// Keys a salvaging import left out, in order: their values nest deeper than a suite file
    /// holds (``PrefValue/maximumNesting``). Always empty for an import that does not salvage.
    public var skippedKeys: [String] = []
}

extension SuiteStore {
    /// Imports a JSON object in the suite file format — what ``exportJSON()`` and `rizq-prefs
    /// export` write — in one durable commit: all keys or none. A key whose value is `null` is
    /// removed; with `replacing`, every key the object does not name is removed too. The
    /// object's keys are the suite's keys, so `{"$date": "…"}` imports one key named `$date`.
    /// A ``SuiteMigrations/versionKey`` member (a whole suite file given as input) is not a key: it
    /// is accepted when it is the suite's ``schemaVersion`` and refused otherwise.
    ///
    /// ```swift
    /// let backup = try store.exportJSON()
    /// // …later, or in another suite:
    /// try store.importJSON(backup, replacing: true)
    /// ```
    ///
    /// With `salvaging`, a key whose value nests deeper than a suite file holds (a file that an
    /// open moved aside for its depth: written by hand, or by a release that wrote any depth) is
    /// left out and named in ``SuiteImportResult/skippedKeys``, and the other keys are imported:
    /// what `rizq-prefs doctor` suggests for such a file (`rizq-prefs import --salvage`).
    ///
    /// A key an administrator forced (``objectIsForced(forKey:)``), set or removed by the object,
    /// and a value the suite's schema forbids, refuse the whole import.
    /// - Throws: ``SuiteStoreError``: ``SuiteStoreError/importNotJSON(reason:line:column:)``,
    ///   ``SuiteStoreError/importNotAnObject(kindName:)``,
    ///   ``SuiteStoreError/importOtherSchemaVersion(recorded:suite:)``, or what the suite refused;
    ///   nothing is changed.
    @discardableResult
    public func importJSON(_ data: Data, replacing: Bool = false, salvaging: Bool = false) throws(SuiteStoreError) -> SuiteImportResult {
        let parsed: (value: PrefValue, duplicateKeys: [String], skippedKeys: [String])
        do {
            parsed = try JSONReader.parseSuiteDocument(data, skippingTooDeep: salvaging)
        } catch {
            throw .importNotJSON(reason: error.reason, line: error.line, column: error.column)
        }
        guard case .dictionary(var entries) = parsed.value else { throw .importNotAnObject(kindName: parsed.value.kindName) }
        if case .int(let version)? = entries[SchemaVersionMember.key], version >= 0 {
            guard version == schemaVersion else { throw .importOtherSchemaVersion(recorded: version, suite: schemaVersion) }
            entries.removeValue(forKey: SchemaVersionMember.key)
            // Which app's schema migrated it: a record of the file, not a key.
            if case .string? = entries[SchemaVersionMember.appKey] { entries.removeValue(forKey: SchemaVersionMember.appKey) }
        }
        do {
            try commit { batch in
                if replacing { batch.removeAll() }
                for (key, value) in entries {
                    if value == .null {
                        try checkLayers(nil, forKey: key)
                        batch.removeObject(forKey: key)
                    } else {
                        try batch.set(value, forKey: key)
                    }
                }
            }
        } catch let error as SuiteStoreError {
            throw error
        } catch {
            throw .writeFailed(path: location.path, reason: "\(error)")
        }
        return SuiteImportResult(keyCount: entries.count, repeatedKeys: parsed.duplicateKeys, skippedKeys: parsed.skippedKeys)
    }

    /// The suite as one JSON object in the file format: keys sorted, two-space indented, dates
    /// and data in their tagged forms — what ``importJSON(_:replacing:salvaging:)`` reads back.
    /// - Throws: ``SuiteStoreError/invalidValue(key:reason:)`` for a value JSON cannot hold
    ///   (none can be stored).
    public func exportJSON() throws(SuiteStoreError) -> Data {
        do {
            return Data(try JSONWriter.bytes(.dictionary(entries), pretty: true))
        } catch {
            throw .invalid(error)
        }
    }
}
