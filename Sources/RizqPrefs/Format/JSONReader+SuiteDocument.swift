import Foundation
import RizqJSON

extension JSONReader {
    /// Parses like ``parseReporting(_:)``, except that a top-level object is always a
    /// `.dictionary`, as in a suite file: its keys are the suite's keys, so `{"$date": "…"}` is a
    /// suite with one key, not a date. What `rizq-prefs import` reads (the format `export` writes).
    ///
    /// ```swift
    /// let (value, _) = try JSONReader.parseSuiteDocument(Array(#"{"$date": "2026-11-22T13:47:00Z"}"#.utf8))
    /// // value == .dictionary(["$date": "2026-11-22T13:47:00Z"])
    /// ```
    /// - Throws: ``Failure`` with the position of the first problem.
    package static func parseSuiteDocument(_ data: some ContiguousBytes) throws(Failure) -> (value: PrefValue, duplicateKeys: [String]) {
        let read = try parseSuiteDocument(data, skippingTooDeep: false)
        return (read.value, read.duplicateKeys)
    }

    /// Parses like ``parseSuiteDocument(_:)``; with `skippingTooDeep`, a top-level member whose
    /// value nests deeper than the reader takes is left out and named in `skippedKeys` instead
    /// of failing the whole text (what a salvaging import does with a file quarantined for its
    /// depth). The skipped value is moved past without recursion, whatever its depth.
    /// - Throws: ``Failure`` with the position of the first problem.
    package static func parseSuiteDocument(
        _ data: some ContiguousBytes, skippingTooDeep: Bool
    ) throws(Failure) -> (value: PrefValue, duplicateKeys: [String], skippedKeys: [String]) {
        let read = data.withUnsafeBytes { raw -> Result<(PrefValue, [String], [String]), Failure> in
            var reader = JSONReader(raw.bindMemory(to: UInt8.self), loneSurrogates: .reject)
            do throws(Failure) {
                let value = try reader.readDocument { reader throws(Failure) -> (PrefValue, [String], [String]) in
                    guard reader.bytes[reader.index] == UInt8(ascii: "{") else {
                        return (try reader.readValue(PrefValueBuilder.self, topLevel: true), [], [])
                    }
                    var members = PrefValueBuilder.makeMembers()
                    var duplicates: [String] = []
                    var skipped: [String] = []
                    let add = { (key: String, keyOffset: Int, value: PrefValue) in
                        if PrefValueBuilder.add(key: key, keyOffset: keyOffset, value: value, to: &members) { duplicates.append(key) }
                    }
                    if skippingTooDeep {
                        _ = try reader.readMembersSkippingTooDeep(PrefValueBuilder.self, add) { key in
                            skipped.append(key)
                            // A later member of the same key that reads replaces the skipped one.
                            members.removeValue(forKey: key)
                        }
                    } else {
                        _ = try reader.readMembers(PrefValueBuilder.self, add)
                    }
                    return (.dictionary(members), duplicates, skipped.filter { members[$0] == nil })
                }
                return .success(value)
            } catch {
                return .failure(error)
            }
        }
        let (value, duplicates, skipped) = try read.get()
        return (value, duplicates, skipped)
    }
}
