#if Secrets
import CSecretShim
import Foundation

/// The Secret Service calls through the C shim, each D-Bus round trip limited to ``timeout``.
///
/// Only ``connect(roundTrip:)`` makes one, so that every call is made while connected, as the
/// shim requires. Used on ``SecretWorker``'s thread only: the shim is not thread-safe.
struct ShimCalls: SecretServiceCalls {
    /// Each D-Bus round trip's time-out, in milliseconds: the shim takes it with every call.
    let timeout: Int32

    private init(timeout: Int32) {
        self.timeout = timeout
    }

    /// Loads libsecret (the first time in the process), connects unless connected, and returns
    /// calls whose round trips may take `seconds` each.
    static func connect(roundTrip seconds: Double) throws(ShimFailure) -> ShimCalls {
        let calls = ShimCalls(timeout: Int32(Swift.max(1, Swift.min(seconds * 1000, Double(Int32.max)))))
        try check { rizq_secret_connect(calls.timeout, $0) }
        return calls
    }

    /// Drops libsecret's proxy and session; the next ``connect(roundTrip:)`` makes new ones.
    static func disconnect() {
        rizq_secret_disconnect()
    }

    var changes: UInt32? {
        var count: UInt32 = 0
        return rizq_secret_changes(&count) ? count : nil
    }

    func search(_ attributes: [String: String]) throws(ShimFailure) -> ItemPaths {
        var unlocked: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
        var locked: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
        defer {
            Self.release(unlocked)
            Self.release(locked)
        }
        try Self.check { error in
            Self.withCStrings(Self.pairs(attributes)) { rizq_secret_search($0, timeout, &unlocked, &locked, error) }
        }
        return ItemPaths(unlocked: Self.strings(unlocked), locked: Self.strings(locked))
    }

    func secret(at item: String) throws(ShimFailure) -> Data? {
        var value: OpaquePointer?
        var bytes: UnsafeRawPointer?
        var length = 0
        try Self.check { rizq_secret_get_secret(item, timeout, &value, &bytes, &length, $0) }
        guard let value else { return nil }
        // Copied out of libsecret's secure memory, which its own free then clears.
        defer { rizq_secret_value_release(value) }
        return bytes.map { Data(bytes: $0, count: length) } ?? Data()
    }

    func setSecret(_ secret: Data, isText: Bool, at item: String) throws(ShimFailure) {
        try Self.check { error in
            secret.withUnsafeBytes { rizq_secret_set_secret(item, $0.baseAddress, $0.count, !isText, timeout, error) }
        }
    }

    func setLabel(_ label: String, at item: String) throws(ShimFailure) {
        try Self.check { rizq_secret_set_label(item, label, timeout, $0) }
    }

    func attribute(_ name: String, of item: String) throws(ShimFailure) -> String? {
        var value: UnsafeMutablePointer<CChar>?
        defer { free(value) }
        try Self.check { rizq_secret_item_attribute(item, name, timeout, &value, $0) }
        return value.map { String(cString: $0) }
    }

    func createItem(
        in collection: String, attributes: [String: String], label: String, secret: Data, isText: Bool
    ) throws(ShimFailure) -> (item: String, prompt: String?) {
        var item: UnsafeMutablePointer<CChar>?
        var prompt: UnsafeMutablePointer<CChar>?
        defer {
            free(item)
            free(prompt)
        }
        try Self.check { error in
            Self.withCStrings(Self.pairs(attributes)) { pairs in
                secret.withUnsafeBytes { raw in
                    rizq_secret_create_item(
                        collection, pairs, label, raw.baseAddress, raw.count, !isText, true, timeout, &item, &prompt, error)
                }
            }
        }
        return (item.map { String(cString: $0) } ?? "", Self.object(prompt))
    }

    func delete(_ item: String) throws(ShimFailure) -> String? {
        var prompt: UnsafeMutablePointer<CChar>?
        defer { free(prompt) }
        try Self.check { rizq_secret_delete(item, timeout, &prompt, $0) }
        return Self.object(prompt)
    }

    func collection(alias: String) throws(ShimFailure) -> String? {
        var collection: UnsafeMutablePointer<CChar>?
        defer { free(collection) }
        try Self.check { rizq_secret_read_alias(alias, timeout, &collection, $0) }
        return Self.object(collection)
    }

    func isLocked(collection: String) throws(ShimFailure) -> Bool {
        var locked = false
        try Self.check { rizq_secret_collection_locked(collection, timeout, &locked, $0) }
        return locked
    }

    func setLocked(_ objects: [String], lock: Bool) throws(ShimFailure) -> (done: [String], prompt: String?) {
        var done: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
        var prompt: UnsafeMutablePointer<CChar>?
        defer {
            Self.release(done)
            free(prompt)
        }
        try Self.check { error in
            Self.withCStrings(objects) { rizq_secret_set_locked($0, lock, timeout, &done, &prompt, error) }
        }
        return (Self.strings(done), Self.object(prompt))
    }

    func prompt(_ prompt: String) throws(ShimFailure) -> [String] {
        var objects: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
        defer { Self.release(objects) }
        try Self.check { rizq_secret_prompt(prompt, timeout, &objects, $0) }
        return Self.strings(objects)
    }

    // MARK: Crossing the C boundary

    /// Runs one shim function; anything but ``ShimStatus/ok`` is thrown, with its meaning.
    private static func check(_ body: (UnsafeMutablePointer<rizq_secret_error>) -> rizq_secret_status) throws(ShimFailure) {
        var error = rizq_secret_error()
        let status = ShimStatus(body(&error))
        guard status != .ok else { return }
        let reported = GLibError(error)
        throw ShimFailure(reason: SecretServiceFailure(status: status, error: reported), detail: reported.message)
    }

    /// The attributes as name, value, name, value…, in the order of their names.
    private static func pairs(_ attributes: [String: String]) -> [String] {
        attributes.sorted { $0.key < $1.key }.flatMap { [$0.key, $0.value] }
    }

    /// `body` given `strings` as a NULL-terminated array of C strings.
    private static func withCStrings<Result>(_ strings: [String], _ body: ([UnsafePointer<CChar>?]) -> Result) -> Result {
        let copies = strings.map { strdup($0) }
        defer { copies.forEach { free($0) } }
        return body(copies.map { $0.map { UnsafePointer($0) } } + [nil])
    }

    /// An object path the service answered, `nil` for `/` (the Secret Service API's "none").
    private static func object(_ path: UnsafeMutablePointer<CChar>?) -> String? {
        guard let path else { return nil }
        let text = String(cString: path)
        return text == "/" || text.isEmpty ? nil : text
    }

    /// The strings of a NULL-terminated array.
    private static func strings(_ array: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> [String] {
        var result: [String] = []
        while let array, let item = array[result.count] { result.append(String(cString: item)) }
        return result
    }

    /// Frees a NULL-terminated array of strings the shim returned, and each string.
    private static func release(_ array: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) {
        guard let array else { return }
        var index = 0
        while let item = array[index] {
            free(item)
            index += 1
        }
        free(array)
    }
}
#endif
