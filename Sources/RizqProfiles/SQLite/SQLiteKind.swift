#if Secrets
/// Which browser storage an SQLite file is, from its tables.
enum SQLiteKind {
    /// The kind of the database at `copy` (a private copy of `source`).
    /// - Throws: ``ProfileError/damaged(path:reason:)`` for a file that is not a database,
    ///   ``ProfileError/wrongSchema(path:tables:)`` for a database of another kind.
    static func of(_ copy: String, source: String) throws(ProfileError) -> ProfileStoreKind {
        let tables: [String]
        do {
            tables = try SQLiteDatabase(path: copy).tables()
        } catch {
            throw error.profileError(source)
        }
        if tables.contains("ItemTable") { return .webkitSQLite }
        if tables.contains("webappsstore2") { return .firefoxWebappsstore }
        if tables.contains("data"), tables.contains("database") { return .firefoxLSNG }
        throw .wrongSchema(path: source, tables: tables)
    }
}

extension SQLiteDatabase.Failure {
    /// The ``ProfileError`` for this failure on the profile's file `source`.
    func profileError(_ source: String) -> ProfileError {
        isDamage ? .damaged(path: source, reason: message) : .unreadable(path: source, reason: message)
    }
}

extension ProfileError {
    /// The error for what reading the profile's SQLite file `source` threw: a ``ProfileError``
    /// as it is, SQLite's failure as damage or unreadability, anything else as unreadable.
    static func sqlite(_ error: any Error, file source: String) -> ProfileError {
        switch error {
        case let error as ProfileError: return error
        case let error as SQLiteDatabase.Failure: return error.profileError(source)
        default: return .unreadable(path: source, reason: "\(error)")
        }
    }
}
#endif
