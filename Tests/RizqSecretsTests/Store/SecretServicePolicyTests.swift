import Foundation
import XCTest
@testable import RizqSecrets

/// The decisions the C shim used to make, now Swift's (`SecretServicePolicy`): which D-Bus calls
/// a store, a listing or a locked item takes. Against the real gnome-keyring of the test session,
/// each call the policy makes recorded; and, for locked items and prompts (the shared keyring
/// cannot be locked: nothing could unlock it again), against a service scripted call by call.
final class SecretServicePolicyTests: XCTestCase {
    // MARK: Upsert, on the real service

    func testStoringOverAnItemSecretToolMadeReplacesItsSecretInPlace() throws {
        try requireSecretService()
        let service = uniqueService()
        try checked("/usr/bin/secret-tool", ["store", "--label=by secret-tool", "service", service, "account", "token"], input: "from-secret-tool")
        let before = try itemPaths(service: service, account: "token")
        XCTAssertEqual(before.count, 1)

        let calls = try recorded { policy, paths throws(ShimFailure) in
            try policy.store(
                Data("from-rizq".utf8), isText: true, for: .init(service: service, account: "token"), label: "by rizq",
                schema: SecretServiceStore.schemaName, alias: "default", paths: &paths)
        }.calls
        XCTAssertEqual(calls, ["search", "attribute", "setSecret", "setLabel", "search"], "the item is updated (its expiry read first), no other is created; a search for a refresh token to drop")

        XCTAssertEqual(try itemPaths(service: service, account: "token"), before, "the same item, and only it")
        XCTAssertEqual(try checked("/usr/bin/secret-tool", ["lookup", "service", service, "account", "token"]), "from-rizq")
        let item = try checked("/usr/bin/secret-tool", ["search", "--all", "service", service, "account", "token"])
        XCTAssertTrue(item.contains("label = by rizq\n"), item)
        // secret-tool's item, not one of ours made anew (gnome-keyring may give it the generic
        // schema's name when its secret is set; it never gets ours).
        let attributes = try itemAttributes(before[0])
        XCTAssertTrue(attributes.contains("'account': 'token'") && attributes.contains("'service': '\(service)'"), attributes)
        XCTAssertFalse(attributes.contains(SecretServiceStore.schemaName), attributes)
        try checked("/usr/bin/secret-tool", ["clear", "service", service])
    }

    func testStoringANewAccountCreatesOneItemUnderTheSchemaThenUpdatesIt() throws {
        try requireSecretService()
        let service = uniqueService()
        let key = SecretPathCache.Key(service: service, account: "fresh")
        let store = { (secret: String) throws -> [String] in
            try self.recorded { policy, paths throws(ShimFailure) in
                try policy.store(
                    Data(secret.utf8), isText: true, for: key, label: "fresh item", schema: SecretServiceStore.schemaName,
                    alias: "default", paths: &paths)
            }.calls
        }
        XCTAssertEqual(try store("first"), ["search", "collection", "isLocked", "createItem", "search"])
        let item = try checked("/usr/bin/secret-tool", ["search", "--all", "service", service, "account", "fresh"])
        XCTAssertTrue(item.contains("label = fresh item\n"), item)
        let paths = try itemPaths(service: service, account: "fresh")
        XCTAssertEqual(paths.count, 1)
        let attributes = try itemAttributes(paths[0])
        XCTAssertTrue(attributes.contains("'xdg:schema': '\(SecretServiceStore.schemaName)'"), attributes)

        XCTAssertEqual(try store("second"), ["search", "attribute", "setSecret", "setLabel", "search"])
        XCTAssertEqual(try itemPaths(service: service, account: "fresh").count, 1)
        XCTAssertEqual(try checked("/usr/bin/secret-tool", ["lookup", "service", service, "account", "fresh"]), "second")
        try checked("/usr/bin/secret-tool", ["clear", "service", service])
    }

    // MARK: Listing, on the real service

    /// Every account once (two items of one account, made by secret-tool with another attribute,
    /// count once), sorted, whoever made the items; attributes read, never a secret.
    func testListingReadsEachItemsAccountAndNoSecret() throws {
        try requireSecretService()
        let service = uniqueService()
        for (account, extra) in [("zeta", "1"), ("alpha", "1"), ("twice", "1"), ("twice", "2")] {
            try checked("/usr/bin/secret-tool", ["store", "--label=l", "service", service, "account", account, "extra", extra], input: "s")
        }
        try SecretServiceStore(service: service).setSecret("ours", forAccount: "mid")
        try checked("/usr/bin/secret-tool", ["store", "--label=other", "service", service + ".other", "account", "elsewhere"], input: "s")

        let (accounts, calls) = try recorded { policy, _ throws(ShimFailure) in try policy.accounts(of: service) }
        XCTAssertEqual(accounts, ["alpha", "mid", "twice", "zeta"])
        XCTAssertEqual(calls, ["search"] + Array(repeating: "attribute", count: 5), "one search, each item's attribute, no secret")
        try checked("/usr/bin/secret-tool", ["clear", "service", service])
        try checked("/usr/bin/secret-tool", ["clear", "service", service + ".other"])
    }

    // MARK: Locked and prompts, call by call

    private let item = "/org/freedesktop/secrets/collection/login/7"
    private let key = SecretPathCache.Key(service: "s", account: "a")

    func testALockedItemWithoutPromptingIsTheLockedErrorAndNothingIsAsked() throws {
        let service = ScriptedService(found: ItemPaths(unlocked: [], locked: [item]))
        let policy = SecretServicePolicy(calls: service, allowsPrompt: false)
        var paths = SecretPathCache()
        XCTAssertEqual(failure { () throws(ShimFailure) in try policy.store(Data("x".utf8), isText: true, for: key, label: "l", schema: "s", alias: "default", paths: &paths) }, .locked)
        XCTAssertEqual(failure { () throws(ShimFailure) in _ = try policy.lookup(key, paths: &paths) }, .locked)
        XCTAssertEqual(failure { () throws(ShimFailure) in _ = try policy.delete(key, paths: &paths) }, .locked)
        XCTAssertEqual(service.log, ["search", "search", "search"], "no unlock, no prompt, no secret read or written")
    }

    func testALockedCollectionWithoutPromptingIsTheLockedErrorBeforeAnyItemIsCreated() throws {
        let service = ScriptedService(found: ItemPaths(unlocked: [], locked: []), collectionLocked: true)
        var paths = SecretPathCache()
        let policy = SecretServicePolicy(calls: service, allowsPrompt: false)
        XCTAssertEqual(failure { () throws(ShimFailure) in try policy.store(Data("x".utf8), isText: true, for: key, label: "l", schema: "s", alias: "default", paths: &paths) }, .locked)
        XCTAssertEqual(service.log, ["search", "collection", "isLocked"])
    }

    func testWithPromptingTheUnlockPromptIsShownAndADismissedOneIsTheDismissedError() throws {
        let dismissed = ScriptedService(found: ItemPaths(unlocked: [], locked: [item]), unlockPrompt: "/prompt/1", promptCompletes: false)
        var paths = SecretPathCache()
        XCTAssertEqual(failure { () throws(ShimFailure) in _ = try SecretServicePolicy(calls: dismissed, allowsPrompt: true).lookup(key, paths: &paths) }, .promptDismissed)
        XCTAssertEqual(dismissed.log, ["search", "unlock", "prompt /prompt/1"], "no secret read after a dismissed prompt")

        let answered = ScriptedService(found: ItemPaths(unlocked: [], locked: [item]), unlockPrompt: "/prompt/2", promptCompletes: true)
        try SecretServicePolicy(calls: answered, allowsPrompt: true)
            .store(Data("x".utf8), isText: true, for: key, label: "l", schema: "s", alias: "default", paths: &paths)
        XCTAssertEqual(answered.log, ["search", "unlock", "prompt /prompt/2", "attribute", "setSecret", "setLabel", "search"])
    }

    /// No secret for an item the search listed as unlocked is a session that could not decrypt it
    /// (connect again: ``SecretServiceFailure/sessionRefused``); no secret for one that had to be
    /// unlocked first is still the locked error.
    func testNoSecretForAnUnlockedItemIsAnUnusableSessionAndForAnUnlockedOneLocked() throws {
        var paths = SecretPathCache()
        let unlocked = ScriptedService(found: ItemPaths(unlocked: [item], locked: []), givesSecret: false)
        XCTAssertEqual(failure { () throws(ShimFailure) in _ = try SecretServicePolicy(calls: unlocked, allowsPrompt: false).lookup(key, paths: &paths) }, .sessionRefused)
        XCTAssertEqual(unlocked.log, ["search", "attribute", "secret"])
        let locked = ScriptedService(found: ItemPaths(unlocked: [], locked: [item]), unlockPrompt: "/prompt/3", promptCompletes: true, givesSecret: false)
        XCTAssertEqual(failure { () throws(ShimFailure) in _ = try SecretServicePolicy(calls: locked, allowsPrompt: true).lookup(key, paths: &paths) }, .locked)
        XCTAssertEqual(locked.log, ["search", "unlock", "prompt /prompt/3", "attribute", "secret"])
    }

    /// A prompt that creating or deleting asks for on an unlocked object is the service's own
    /// step (KeePassXC asks for one every time): performed even without prompting, and a
    /// dismissed one is the dismissed error.
    func testAPromptCreatingOrDeletingAsksForIsTheServicesOwnStep() throws {
        var paths = SecretPathCache()
        let creating = ScriptedService(found: ItemPaths(unlocked: [], locked: []), createPrompt: "/prompt/3", promptCompletes: true)
        try SecretServicePolicy(calls: creating, allowsPrompt: false).store(Data(), isText: false, for: key, label: "l", schema: "s", alias: "default", paths: &paths)
        XCTAssertEqual(creating.log, ["search", "collection", "isLocked", "createItem", "prompt /prompt/3", "search", "search"])
        let dismissed = ScriptedService(found: ItemPaths(unlocked: [], locked: []), createPrompt: "/prompt/5", promptCompletes: false)
        XCTAssertEqual(failure { () throws(ShimFailure) in try SecretServicePolicy(calls: dismissed, allowsPrompt: false).store(Data(), isText: false, for: key, label: "l", schema: "s", alias: "default", paths: &paths) }, .promptDismissed)

        let deleting = ScriptedService(found: ItemPaths(unlocked: [item], locked: []), deletePrompt: "/prompt/4", promptCompletes: true)
        XCTAssertTrue(try SecretServicePolicy(calls: deleting, allowsPrompt: false).delete(key, paths: &paths))
        XCTAssertEqual(deleting.log, ["search", "delete", "prompt /prompt/4", "search", "search"], "a search tells the prompt was not dismissed; one more for a refresh token")
    }

    func testNoCollectionUnderTheAliasIsItsOwnError() throws {
        let service = ScriptedService(found: ItemPaths(unlocked: [], locked: []), collection: nil)
        var paths = SecretPathCache()
        let policy = SecretServicePolicy(calls: service, allowsPrompt: true)
        XCTAssertEqual(failure { () throws(ShimFailure) in try policy.store(Data(), isText: false, for: key, label: "l", schema: "s", alias: "session", paths: &paths) }, .noCollection)
        XCTAssertEqual(try policy.keyringStatus(alias: "session").exists, false)
    }

    // MARK: Support

    /// Runs `body` on the libsecret worker, connected, with every call its policy makes recorded.
    private func recorded<Value: Sendable>(
        _ body: @escaping @Sendable (SecretServicePolicy<RecordingCalls>, inout SecretPathCache) throws(ShimFailure) -> Value
    ) throws -> (value: Value, calls: [String]) {
        let result = try SecretWorker.shared.run(timeout: 30) { () throws(SecretError) -> Recorded<Value> in
            try SecretServiceSession.perform(timeout: 30, roundTrip: 20) { calls, paths throws(ShimFailure) in
                let recording = RecordingCalls(calls)
                let value = try body(SecretServicePolicy(calls: recording, allowsPrompt: false), &paths)
                return Recorded(value: value, calls: recording.log)
            }
        }
        return (result.value, result.calls)
    }

    /// The `Attributes` property of the item at `path`, as gdbus prints it.
    private func itemAttributes(_ path: String) throws -> String {
        try checked("/usr/bin/gdbus", [
            "call", "--session", "--dest", "org.freedesktop.secrets", "--object-path", path,
            "--method", "org.freedesktop.DBus.Properties.Get", "org.freedesktop.Secret.Item", "Attributes",
        ])
    }

    /// What `body` failed with, or `nil`.
    private func failure(_ body: () throws(ShimFailure) -> Void) -> SecretServiceFailure? {
        do throws(ShimFailure) {
            try body()
            return nil
        } catch {
            return error.reason
        }
    }
}

private struct Recorded<Value: Sendable>: Sendable {
    var value: Value
    var calls: [String]
}

/// The real calls, each one's name noted before it is made (on the worker thread only).
private final class RecordingCalls: SecretServiceCalls {
    let inner: ShimCalls
    private(set) var log: [String] = []

    init(_ inner: ShimCalls) {
        self.inner = inner
    }

    private func note(_ call: String) {
        log.append(call)
    }

    var changes: UInt32? { inner.changes }
    func search(_ attributes: [String: String]) throws(ShimFailure) -> ItemPaths { note("search"); return try inner.search(attributes) }
    func secret(at item: String) throws(ShimFailure) -> Data? { note("secret"); return try inner.secret(at: item) }
    func setSecret(_ secret: Data, isText: Bool, at item: String) throws(ShimFailure) { note("setSecret"); try inner.setSecret(secret, isText: isText, at: item) }
    func setLabel(_ label: String, at item: String) throws(ShimFailure) { note("setLabel"); try inner.setLabel(label, at: item) }
    func attribute(_ name: String, of item: String) throws(ShimFailure) -> String? { note("attribute"); return try inner.attribute(name, of: item) }
    func createItem(in collection: String, attributes: [String: String], label: String, secret: Data, isText: Bool) throws(ShimFailure) -> (item: String, prompt: String?) {
        note("createItem")
        return try inner.createItem(in: collection, attributes: attributes, label: label, secret: secret, isText: isText)
    }
    func delete(_ item: String) throws(ShimFailure) -> String? { note("delete"); return try inner.delete(item) }
    func collection(alias: String) throws(ShimFailure) -> String? { note("collection"); return try inner.collection(alias: alias) }
    func isLocked(collection: String) throws(ShimFailure) -> Bool { note("isLocked"); return try inner.isLocked(collection: collection) }
    func setLocked(_ objects: [String], lock: Bool) throws(ShimFailure) -> (done: [String], prompt: String?) {
        note(lock ? "lock" : "unlock")
        return try inner.setLocked(objects, lock: lock)
    }
    func prompt(_ prompt: String) throws(ShimFailure) -> [String] { note("prompt"); return try inner.prompt(prompt) }
}

/// A Secret Service whose answers the test gives: the items a search finds, the collection,
/// whether it is locked, the prompts operations ask for and how a prompt ends. Notes each call.
private final class ScriptedService: SecretServiceCalls {
    let found: ItemPaths
    let collectionPath: String?
    let collectionLocked: Bool
    let unlockPrompt: String?
    let createPrompt: String?
    let deletePrompt: String?
    let promptCompletes: Bool
    /// Whether `GetSecrets` gives the secret (libsecret gives none it could not decrypt).
    let givesSecret: Bool
    private(set) var log: [String] = []

    init(
        found: ItemPaths, collection: String? = "/org/freedesktop/secrets/collection/login", collectionLocked: Bool = false,
        unlockPrompt: String? = nil, createPrompt: String? = nil, deletePrompt: String? = nil, promptCompletes: Bool = false,
        givesSecret: Bool = true
    ) {
        self.givesSecret = givesSecret
        self.found = found
        collectionPath = collection
        self.collectionLocked = collectionLocked
        self.unlockPrompt = unlockPrompt
        self.createPrompt = createPrompt
        self.deletePrompt = deletePrompt
        self.promptCompletes = promptCompletes
    }

    var changes: UInt32? { 0 }
    func search(_ attributes: [String: String]) throws(ShimFailure) -> ItemPaths {
        log.append("search")
        // The account's items only: no refresh token is kept here.
        if attributes["refresh_token_service"] != nil { return ItemPaths(unlocked: [], locked: []) }
        if log.contains("delete") { return ItemPaths(unlocked: [], locked: []) }
        // After a create whose prompt completed, the new item is found.
        if log.contains("createItem"), log.contains(where: { $0.hasPrefix("prompt") }), promptCompletes { return ItemPaths(unlocked: ["/org/freedesktop/secrets/collection/login/1"], locked: []) }
        return found
    }
    func secret(at item: String) throws(ShimFailure) -> Data? { log.append("secret"); return givesSecret ? Data("secret".utf8) : nil }
    func setSecret(_ secret: Data, isText: Bool, at item: String) throws(ShimFailure) { log.append("setSecret") }
    func setLabel(_ label: String, at item: String) throws(ShimFailure) { log.append("setLabel") }
    func attribute(_ name: String, of item: String) throws(ShimFailure) -> String? { log.append("attribute"); return nil }
    func createItem(in collection: String, attributes: [String: String], label: String, secret: Data, isText: Bool) throws(ShimFailure) -> (item: String, prompt: String?) {
        log.append("createItem")
        return (collection + "/1", createPrompt)
    }
    func delete(_ item: String) throws(ShimFailure) -> String? { log.append("delete"); return deletePrompt }
    func collection(alias: String) throws(ShimFailure) -> String? { log.append("collection"); return collectionPath }
    func isLocked(collection: String) throws(ShimFailure) -> Bool { log.append("isLocked"); return collectionLocked }
    func setLocked(_ objects: [String], lock: Bool) throws(ShimFailure) -> (done: [String], prompt: String?) {
        log.append(lock ? "lock" : "unlock")
        return ([], unlockPrompt)
    }
    func prompt(_ prompt: String) throws(ShimFailure) -> [String] {
        log.append("prompt \(prompt)")
        return promptCompletes ? ["/org/freedesktop/secrets/collection/login"] : []
    }
}
