import Foundation
import RizqTestSupport
import XCTest
@testable import RizqPrefs

/// Opening a suite with a schema: an older file is migrated before the first read, in one
/// atomic write that carries the new version; the version is never one of the suite's keys; a
/// fresh suite starts at the current version; a newer file is left in its shape; a failure
/// changes nothing.
final class SchemaMigrationTests: XCTestCase {
    static let suite = "com.rizq.schema"

    /// The seed app's first versions: a camelCase key, a goal stored as text, a struct that
    /// gains a field, a key that is dropped.
    static func seedSchema() throws -> SuiteMigrations {
        try SuiteMigrations(version: 2, stages: [
            .lightweight(from: 0, to: 1, [
                .rename("lastUsedProvider", to: "last_used_provider"),
                .convert("daily_goal", from: String.self, to: Int.self) { Int($0) },
                .remove("legacy_banner_seen"),
            ]),
            .custom(from: 1, to: 2) { batch in
                if var preferences = batch.value(forKey: "user_preferences", as: [String: PrefValue].self) {
                    preferences["reminderHour"] = preferences["reminderHour"] ?? 9
                    try batch.set(preferences, forKey: "user_preferences")
                }
            },
        ])
    }

    static let versionZeroFile = """
        {
          "current_streak": 12,
          "daily_goal": "05",
          "lastUsedProvider": "google",
          "legacy_banner_seen": true,
          "user_preferences": {
            "dailyGoal": 3,
            "hapticsEnabled": true
          }
        }

        """

    private func write(_ text: String, in root: TemporaryRoot, suite: String = suite) {
        let path = root.filePath(suite)
        try? FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        XCTAssertTrue(FileManager.default.createFile(atPath: path, contents: Data(text.utf8)))
    }

    private func text(_ root: TemporaryRoot, suite: String = suite) -> String? {
        root.fileBytes(suite).map { String(decoding: $0, as: UTF8.self) }
    }

    private func open(_ root: TemporaryRoot, _ schema: SuiteMigrations, suite: String = suite) throws -> SuiteStore {
        try SuiteStore(suite: suite, appID: "tests", root: root.path, migrations: schema)
    }

    // MARK: Migrating

    func testAnOlderFileIsMigratedBeforeTheFirstReadInOneWriteThatCarriesTheVersion() throws {
        let root = TemporaryRoot()
        write(Self.versionZeroFile, in: root)
        let store = try open(root, Self.seedSchema())
        XCTAssertEqual(store.schemaVersion, 2)
        XCTAssertEqual(store.string(forKey: "last_used_provider"), "google")
        XCTAssertNil(store.object(forKey: "lastUsedProvider"))
        XCTAssertEqual(store.value(forKey: "daily_goal", as: Int.self), 5)
        XCTAssertNil(store.object(forKey: "legacy_banner_seen"))
        XCTAssertEqual(store.prefValue(forKey: "user_preferences"), ["dailyGoal": 3, "hapticsEnabled": true, "reminderHour": 9])
        XCTAssertEqual(store.integer(forKey: "current_streak"), 12)
        // The file: plain JSON, the version first, then the keys in order.
        XCTAssertEqual(text(root), """
            {
              "$schemaVersion": 2,
              "$schemaApp": "tests",
              "current_streak": 12,
              "daily_goal": 5,
              "last_used_provider": "google",
              "user_preferences": {
                "dailyGoal": 3,
                "hapticsEnabled": true,
                "reminderHour": 9
              }
            }

            """)
        let object = try root.fileObject(Self.suite)
        XCTAssertEqual(object["$schemaVersion"] as? Int, 2)
        // A second open (a later launch) finds it migrated and leaves the file alone.
        let before = try XCTUnwrap(root.fileBytes(Self.suite))
        let stamp = try fileStamp(root.filePath(Self.suite))
        _ = try open(root, Self.seedSchema())
        XCTAssertEqual(root.fileBytes(Self.suite), before)
        XCTAssertEqual(try fileStamp(root.filePath(Self.suite)), stamp)
    }

    func testAFileMigratedUpToAVersionRunsOnlyTheLaterStages() throws {
        let root = TemporaryRoot()
        // Version 1 already: the rename of stage 0 → 1 must not run again.
        write(#"{"$schemaVersion": 1, "lastUsedProvider": "kept", "user_preferences": {"dailyGoal": 4}}"#, in: root)
        let store = try open(root, Self.seedSchema())
        XCTAssertEqual(store.schemaVersion, 2)
        XCTAssertEqual(store.string(forKey: "lastUsedProvider"), "kept")
        XCTAssertNil(store.object(forKey: "last_used_provider"))
        XCTAssertEqual(store.prefValue(forKey: "user_preferences"), ["dailyGoal": 4, "reminderHour": 9])
    }

    func testAFreshSuiteStartsAtTheCurrentVersionWithoutRunningStages() throws {
        let root = TemporaryRoot()
        let schema = try SuiteMigrations(version: 3, stages: [
            .custom(from: 0, to: 1) { _ in throw CocoaError(.featureUnsupported) },   // would fail if it ran
            .lightweight(from: 1, to: 2, []),
            .lightweight(from: 2, to: 3, []),
        ])
        let store = try open(root, schema)
        XCTAssertEqual(store.schemaVersion, 3)
        XCTAssertEqual(store.keys, [])
        XCTAssertEqual(text(root), "{\n  \"$schemaVersion\": 3,\n  \"$schemaApp\": \"tests\"\n}\n")
        store.set(1, forKey: "a")
        try store.flush()
        XCTAssertEqual(text(root), "{\n  \"$schemaVersion\": 3,\n  \"$schemaApp\": \"tests\",\n  \"a\": 1\n}\n")
    }

    func testAFileThatRecordsNoVersionIsVersionZero() throws {
        let root = TemporaryRoot()
        write("{}\n", in: root)
        let schema = try SuiteMigrations(version: 1, stages: [.custom(from: 0, to: 1) { batch in try batch.set(true, forKey: "stage_ran") }])
        let store = try open(root, schema)
        XCTAssertEqual(store.schemaVersion, 1)
        XCTAssertEqual(store.bool(forKey: "stage_ran"), true)
    }

    func testLightweightChangesHandleMissingKeysConflictsAndValuesThatDoNotConvert() throws {
        let root = TemporaryRoot()
        write(#"{"a": 1, "b": 2, "c": "x", "d": true, "e": 7, "f": "8", "g": "nine"}"#, in: root)
        let schema = try SuiteMigrations(version: 1, stages: [
            .lightweight(from: 0, to: 1, [
                .rename("absent", to: "nowhere"),                            // nothing
                .rename("a", to: "b", ifTargetExists: .keepExisting),        // b stays 2, a goes
                .convert("c", from: Int.self, to: String.self, ifUnconvertible: .keep) { "\($0)" },      // "x" is a String already
                .convert("d", from: String.self, to: Int.self, ifUnconvertible: .removeKey) { Int($0) }, // a bool: removed
                .convert("e", from: String.self, to: Int.self) { Int($0) },  // an Int already: unchanged
                .convert("f", from: String.self, to: Int.self) { Int($0) },  // "8" → 8
                .convert("g", from: String.self, to: Int.self, ifUnconvertible: .keep) { Int($0) },     // "nine" stays
            ]),
        ])
        let store = try open(root, schema)
        XCTAssertEqual(store.entries, ["b": 2, "c": "x", "e": 7, "f": 8, "g": "nine"])
    }

    func testAValueThatDoesNotConvertFailsTheMigrationAndChangesNothing() throws {
        let root = TemporaryRoot()
        write(#"{"daily_goal": "lots", "lastUsedProvider": "google"}"#, in: root)
        let before = root.fileBytes(Self.suite)
        XCTAssertThrowsError(try open(root, Self.seedSchema())) { error in
            guard case MigrationError.stageFailed(let suite, 0, 1, let reason, _) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(suite, Self.suite)
            XCTAssertTrue(reason.contains("'daily_goal' holds a string that does not convert from String to Int"), reason)
            XCTAssertFalse("\(error)".contains("lots"), "the message names the key and the types, not the value")
        }
        XCTAssertEqual(root.fileBytes(Self.suite), before)
    }

    // MARK: The version is not a key

    func testTheVersionIsNeverOneOfTheSuitesKeys() async throws {
        let root = TemporaryRoot()
        write(Self.versionZeroFile, in: root)
        // Another instance, opened before the migration, follows every change.
        let watcher = try root.store(Self.suite)
        let changes = watcher.changes()
        let store = try open(root, Self.seedSchema())
        store.set("end", forKey: "sentinel")
        var seen: [String] = []
        for await change in changes {
            seen.append(change.key)
            if change.key == "sentinel" { break }
        }
        XCTAssertEqual(Set(seen), ["daily_goal", "lastUsedProvider", "last_used_provider", "legacy_banner_seen", "user_preferences", "sentinel"])
        for candidate in [store, watcher] {
            XCTAssertFalse(candidate.keys.contains("$schemaVersion"))
            XCTAssertNil(candidate.entries["$schemaVersion"])
            XCTAssertNil(candidate.dictionaryRepresentation()["$schemaVersion"])
            XCTAssertNil(candidate.persistentDomain(forName: Self.suite)?["$schemaVersion"])
            XCTAssertNil(candidate.object(forKey: "$schemaVersion"))
            XCTAssertEqual(candidate.schemaVersion, 2)
        }
        // Storing a key of that name is refused, whichever way it is tried.
        XCTAssertThrowsError(try store.put(7, forKey: "$schemaVersion")) { error in
            guard case SuiteStoreError.invalidValue(let key, let reason) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(key, "$schemaVersion")
            XCTAssertTrue(reason.contains("reserved for the suite's schema version"), reason)
        }
        store.set(7, forKey: "$schemaVersion")
        XCTAssertThrowsError(try store.batch { batch in try batch.set(7, forKey: "$schemaVersion") })
        XCTAssertThrowsError(try store.commit { batch in try batch.set(7, forKey: "$schemaVersion") })
        try store.flush()
        XCTAssertEqual(try root.fileObject(Self.suite)["$schemaVersion"] as? Int, 2)
        XCTAssertNil(store.object(forKey: "$schemaVersion"))
    }

    func testEveryWriteKeepsTheVersion() throws {
        let root = TemporaryRoot()
        write(Self.versionZeroFile, in: root)
        let store = try open(root, Self.seedSchema())
        func version() throws -> Int? { try root.fileObject(Self.suite)["$schemaVersion"] as? Int }
        // A value changed (the incremental encoding), a key added (a whole encoding).
        store.set(13, forKey: "current_streak")
        try store.flush()
        XCTAssertEqual(try version(), 2)
        store.set("dark", forKey: "theme_mode")
        try store.flush()
        XCTAssertEqual(try version(), 2)
        // Another process writes (its write merges), then this one merges over it.
        XCTAssertEqual(try Child.run(root, Self.suite, ["set-json", "from_child", "1"]).status, 0, "the child opened an app suite of app 'tests'")
        store.set(14, forKey: "current_streak")
        try store.flush()
        XCTAssertEqual(try version(), 2)
        XCTAssertEqual(try root.fileObject(Self.suite)["from_child"] as? Int, 1)
        // A commit and its revert (byte for byte, then key by key).
        let before = try XCTUnwrap(root.fileBytes(Self.suite))
        let commit = try store.commit { batch in try batch.set(false, forKey: "haptics") }
        XCTAssertEqual(try version(), 2)
        try commit.revert()
        XCTAssertEqual(root.fileBytes(Self.suite), before)
        XCTAssertEqual(store.schemaVersion, 2)
        // Emptying the suite empties its keys, not its version.
        store.removePersistentDomain(forName: Self.suite)
        try store.flush()
        XCTAssertEqual(text(root), "{\n  \"$schemaVersion\": 2,\n  \"$schemaApp\": \"tests\"\n}\n")
        XCTAssertEqual(store.keys, [])
    }

    func testFilesWithoutAVersionReadAndWriteExactlyAsBefore() throws {
        let root = TemporaryRoot()
        let original = "{\n  \"a\": 1,\n  \"b\": \"two\"\n}\n"
        write(original, in: root)
        let store = try root.store(Self.suite)
        XCTAssertEqual(store.schemaVersion, 0)
        XCTAssertEqual(store.keys, ["a", "b"])
        store.set(3, forKey: "c")
        try store.flush()
        XCTAssertEqual(text(root), "{\n  \"a\": 1,\n  \"b\": \"two\",\n  \"c\": 3\n}\n")
    }

    func testAMemberThatIsNotAVersionStaysAnOrdinaryKeyAndBlocksMigration() throws {
        let root = TemporaryRoot()
        let original = "{\n  \"$schemaVersion\": \"beta\",\n  \"a\": 1\n}\n"
        write(original, in: root)
        let plain = try root.store(Self.suite)
        XCTAssertEqual(plain.string(forKey: "$schemaVersion"), "beta", "a file written before reads as it did")
        XCTAssertEqual(plain.schemaVersion, 0)
        XCTAssertThrowsError(try open(root, Self.seedSchema())) { error in
            guard case MigrationError.invalidStoredVersion(let path, "string") = error else { return XCTFail("\(error)") }
            XCTAssertEqual(path, root.filePath(Self.suite))
            XCTAssertTrue("\(error)".contains("remove the member"), "\(error)")
        }
        XCTAssertEqual(text(root), original)
        // Removing it by hand (or with rizq-prefs delete) lets the migration run.
        plain.removeObject(forKey: "$schemaVersion")
        try plain.flush()
        XCTAssertEqual(try open(root, Self.seedSchema()).schemaVersion, 2)
    }

    // MARK: Newer files

    func testANewerFileIsReadAsItIsAndNeverRewrittenInTheOlderShape() throws {
        let root = TemporaryRoot()
        let newer = "{\n  \"$schemaVersion\": 5,\n  \"last_used_provider\": \"apple\",\n  \"streak_v5\": 3\n}\n"
        write(newer, in: root)
        let stamp = try fileStamp(root.filePath(Self.suite))
        let store = try open(root, Self.seedSchema())
        XCTAssertEqual(store.schemaVersion, 5)
        XCTAssertEqual(text(root), newer, "not migrated down")
        XCTAssertEqual(try fileStamp(root.filePath(Self.suite)), stamp, "not rewritten")
        XCTAssertEqual(store.integer(forKey: "streak_v5"), 3, "keys the older schema does not know are read as they are")
        // Its writes go through, key by key, and the file keeps version 5.
        store.set("google", forKey: "last_used_provider")
        store.set(4, forKey: "current_streak")
        try store.flush()
        XCTAssertEqual(text(root), "{\n  \"$schemaVersion\": 5,\n  \"current_streak\": 4,\n  \"last_used_provider\": \"google\",\n  \"streak_v5\": 3\n}\n")
    }

    func testAnOlderAppInAnotherProcessLogsOnceAndKeepsTheNewerVersion() throws {
        let root = TemporaryRoot()
        write("{\n  \"$schemaVersion\": 2,\n  \"b\": \"new shape\"\n}\n", in: root)
        let result = try SchemaChild.run(root, Self.suite, ["older", "written_by_older", "hello"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.lines, ["version 2"])
        let warnings = result.stderr.split(separator: "\n").filter { $0.contains("newer than this app's schema") }
        XCTAssertEqual(warnings.count, 1, "logged once, though the suite was opened twice: \(result.stderr)")
        XCTAssertEqual(text(root), "{\n  \"$schemaVersion\": 2,\n  \"b\": \"new shape\",\n  \"written_by_older\": \"hello\"\n}\n")
    }

    // MARK: Failures

    func testAFailingCustomStageChangesNothingHereOrInOtherSuites() throws {
        let root = TemporaryRoot()
        write(Self.versionZeroFile, in: root)
        let other = "group.com.rizq.schema-other"
        write("{\n  \"kept\": true\n}\n", in: root, suite: other)
        let before = root.fileBytes(Self.suite)
        let otherBefore = root.fileBytes(other)
        struct Refused: Error {}
        let schema = try SuiteMigrations(version: 3, stages: [
            .lightweight(from: 0, to: 1, [.move("current_streak", toSuite: other, as: "streak")]),
            .lightweight(from: 1, to: 2, [.rename("lastUsedProvider", to: "last_used_provider")]),
            .custom(from: 2, to: 3) { batch in
                try batch.set(1, forKey: "half_way")
                throw Refused()
            },
        ])
        XCTAssertThrowsError(try open(root, schema)) { error in
            guard case MigrationError.stageFailed(_, 2, 3, _, let underlying) = error else { return XCTFail("\(error)") }
            XCTAssertTrue(underlying is Refused)
        }
        XCTAssertEqual(root.fileBytes(Self.suite), before)
        XCTAssertEqual(root.fileBytes(other), otherBefore)
        // This process's view is the file's: the old shape, nothing of the failed stages.
        let plain = try root.store(Self.suite)
        XCTAssertEqual(plain.integer(forKey: "current_streak"), 12)
        XCTAssertNil(plain.object(forKey: "half_way"))
        XCTAssertEqual(plain.schemaVersion, 0)
    }

    func testAFailedWriteRevertsTheOtherSuites() throws {
        let root = TemporaryRoot()
        write(Self.versionZeroFile, in: root)
        let other = "group.com.rizq.schema-other"
        write("{\n  \"kept\": true\n}\n", in: root, suite: other)
        let before = root.fileBytes(Self.suite)
        let otherBefore = root.fileBytes(other)
        // The suite's lock file exists; then its folder takes no new file, so that the
        // migrated file cannot be written — after the other suite was.
        XCTAssertTrue(FileManager.default.createFile(atPath: root.path + "/apps/tests/.\(Self.suite).lock", contents: nil))
        let undo = try makeReadOnly(root.path + "/apps/tests")
        defer { undo() }
        let schema = try SuiteMigrations(version: 1, stages: [
            .lightweight(from: 0, to: 1, [.move("current_streak", toSuite: other, as: "streak")]),
        ])
        XCTAssertThrowsError(try open(root, schema)) { error in
            guard case MigrationError.writeFailed(_, 0, 1, let underlying, let problems) = error else { return XCTFail("\(error)") }
            XCTAssertTrue(underlying is SuiteStoreError, "\(underlying)")
            XCTAssertEqual(problems, [])
            XCTAssertTrue("\(error)".contains("everything written was undone"), "\(error)")
        }
        XCTAssertEqual(root.fileBytes(Self.suite), before)
        XCTAssertEqual(root.fileBytes(other), otherBefore, "the other suite is back, byte for byte")
        XCTAssertNil(try root.store(other).object(forKey: "streak"))
        XCTAssertEqual(try root.store(Self.suite).integer(forKey: "current_streak"), 12)
    }

    // MARK: Moving to another suite

    func testAMoveToAnotherSuiteKeepsOrReplacesWhatIsThere() throws {
        let root = TemporaryRoot()
        write(#"{"a": 1, "b": 2, "c": 3}"#, in: root)
        let other = "group.com.rizq.schema-other"
        write(#"{"b": "there", "c": "there"}"#, in: root, suite: other)
        let schema = try SuiteMigrations(version: 1, stages: [
            .lightweight(from: 0, to: 1, [
                .move("a", toSuite: other),
                .move("b", toSuite: other),
                .move("c", toSuite: other, ifTargetExists: .keepExisting),
                .move("absent", toSuite: other),
            ]),
        ])
        let store = try open(root, schema)
        XCTAssertEqual(store.keys, [])
        XCTAssertEqual(try root.store(other).entries, ["a": 1, "b": 2, "c": "there"])
    }

    func testAMoveToTheSuiteItselfIsAStageFailure() throws {
        let root = TemporaryRoot()
        write(#"{"x": 1}"#, in: root)
        let schema = try SuiteMigrations(version: 1, stages: [.lightweight(from: 0, to: 1, [.move("x", toSuite: Self.suite)])])
        XCTAssertThrowsError(try open(root, schema)) { error in
            guard case MigrationError.stageFailed(_, 0, 1, let reason, nil) = error else { return XCTFail("\(error)") }
            XCTAssertTrue(reason.contains("use a rename"), reason)
        }
        XCTAssertEqual(text(root), #"{"x": 1}"#)
    }

    // MARK: Dry run

    func testThePreviewShowsEachStagesChangesAndWritesNothing() throws {
        let root = TemporaryRoot()
        write(Self.versionZeroFile, in: root)
        let before = root.fileBytes(Self.suite)
        let preview = try SuiteStore.previewMigration(suite: Self.suite, appID: "tests", root: root.path, migrations: Self.seedSchema())
        XCTAssertEqual(preview.outcome, .migrates)
        XCTAssertEqual(preview.storedVersion, 0)
        XCTAssertEqual(preview.schemaVersion, 2)
        XCTAssertEqual(preview.stages.map(\.fromVersion), [0, 1])
        XCTAssertEqual(preview.stages[0].changes, [
            .init(key: "last_used_provider", before: .absent, after: .value("google"), movedTo: nil),
            .init(key: "lastUsedProvider", before: .value("google"), after: .absent, movedTo: nil),
            .init(key: "daily_goal", before: .value("05"), after: .value(5), movedTo: nil),
            .init(key: "legacy_banner_seen", before: .value(true), after: .absent, movedTo: nil),
        ])
        XCTAssertEqual(preview.stages[1].changes.map(\.key), ["user_preferences"])
        XCTAssertTrue(preview.description.contains("version 0 → 2"), preview.description)
        XCTAssertTrue(preview.description.contains("daily_goal: \"05\" → 5"), preview.description)
        XCTAssertTrue(preview.description.contains("lastUsedProvider: \"google\" → (removed)"), preview.description)
        // Nothing written, nothing created, nothing opened.
        XCTAssertEqual(root.fileBytes(Self.suite), before)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: root.path + "/apps/tests"), [Self.suite + ".json"])
        // The other outcomes.
        let fresh = try SuiteStore.previewMigration(suite: "fresh", appID: "tests", root: root.path, migrations: Self.seedSchema())
        XCTAssertEqual(fresh.outcome, .startsFresh)
        XCTAssertFalse(FileManager.default.fileExists(atPath: root.filePath("fresh")))
        _ = try open(root, Self.seedSchema())
        XCTAssertEqual(try SuiteStore.previewMigration(suite: Self.suite, appID: "tests", root: root.path, migrations: Self.seedSchema()).outcome, .upToDate)
        let older = try SuiteMigrations(version: 1, stages: [Self.seedSchema().stages[0]])
        XCTAssertEqual(try SuiteStore.previewMigration(suite: Self.suite, appID: "tests", root: root.path, migrations: older).outcome, .newerThanSchema)
    }

    private func fileStamp(_ path: String) throws -> FileStamp {
        var info = stat()
        guard stat(path, &info) == 0 else { throw POSIXError(.ENOENT) }
        return FileStamp(info)
    }
}
