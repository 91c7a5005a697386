extension JSONReader {
    /// What a suite file's text holds.
    enum SuiteFileContents {
        /// The top-level object, read straight into the store's table (the last of a repeated
        /// key wins), and the schema version the file records (``SchemaVersionMember``: taken
        /// out of the table; `nil` when there is none).
        case object(SuiteTable, schemaVersion: Int?)
        /// Another kind of value (``PrefValue/kindName``): the file is damaged.
        case notAnObject(kindName: String)
    }

    /// Parses a suite file: the members of its top-level object go straight into a
    /// ``SuiteTable``, without a dictionary in between (building and growing that dictionary
    /// was most of the time of opening a large suite).
    /// - Throws: ``Failure`` when the text is not JSON.
    static func parseSuiteFile(_ bytes: [UInt8]) throws(Failure) -> SuiteFileContents {
        let read = bytes.withUnsafeBufferPointer { buffer -> Result<SuiteFileContents, Failure> in
            var reader = JSONReader(buffer, loneSurrogates: .reject)
            do throws(Failure) {
                return .success(try reader.readDocument { reader throws(Failure) in try reader.readSuiteTop() })
            } catch {
                return .failure(error)
            }
        }
        return try read.get()
    }

    private mutating func readSuiteTop() throws(Failure) -> SuiteFileContents {
        guard bytes[index] == UInt8(ascii: "{") else {
            return .notAnObject(kindName: try readValue(PrefValueBuilder.self).kindName)
        }
        // The members are gathered first so that the table is made once at its final size: grown
        // member by member, it rehashed every key at each doubling (a quarter of opening a
        // 100,000-key suite, in callgrind's instruction counts).
        var members: [(key: String, value: PrefValue)] = []
        _ = try readMembers(PrefValueBuilder.self) { key, _, value in members.append((key, value)) }
        var table = SuiteTable(minimumCapacity: members.count)
        for member in members { table.updateValue(member.value, forKey: member.key) }
        let version = SchemaVersionMember.take(from: &table)
        return .object(table, schemaVersion: version)
    }
}
