import Foundation
import RizqSecrets

/// The vault (`VaultSecretStore`), beside its floors and Python's `keyring` with `keyrings.alt`'s
/// encrypted file (the file-based peer of a headless keyring):
/// - `vault-get`: a read of one of `items` tokens with the identity in memory (an app after its
///   first read). Floor: reading `vault.age` and decrypting it with swift-crypto directly
///   (``AgeDecryptFloor``). Peer: `EncryptedKeyring.get_password` (its key set in code).
/// - `vault-set`: replacing one token in a vault of `size` tokens (10, 1,000, 5,000; issue 39),
///   with the identity in memory: a locked read (the file's stamp), the change, the encryption of
///   every secret (the vault is one file) and a durable replace. Floor: the durable write of the
///   same encrypted bytes (``DurableWriteFloor``: a temporary file, write, fsync, rename, folder
///   fsync, as ours). Second floor (issue 39): ``VaultWriteFloor`` — the seal, the age encryption
///   and the generation record that a sealed, rollback-checked vault cannot skip, plus that write.
/// - `vault-unlock-<slot>`: a cold first read in a new store, through one key slot: the key
///   file, the kernel-keyring cache, the passphrase (scrypt at the default work factor), and
///   systemd-creds (root only). Reported, no floor.
enum VaultWorkload {
    static let service = "com.rizq.bench.vault"
    static let items = 20
    static let token = "eyJhbGciOiJIUzI1NiJ9." + String(repeating: "y", count: 160) + ".vault"

    struct Setup {
        let root: String
        let keyFile: String
        let passphraseFile: String
        let vault: VaultSecretStore
    }

    static func setUp(home: BenchHome, items: Int = VaultWorkload.items) throws -> Setup {
        let root = home.path + "/secrets"
        let keyFile = home.path + "/vault-key.txt"
        let passphraseFile = home.path + "/vault-passphrase"
        // Private, as a passphrase file must be (one others can read is refused).
        guard FileManager.default.createFile(
            atPath: passphraseFile, contents: Data("bench passphrase \(UUID().uuidString)".utf8), attributes: [.posixPermissions: 0o600])
        else { throw BenchError("cannot write the passphrase file \(passphraseFile)") }
        var configuration = VaultConfiguration(
            root: root, passphraseSources: [.file(passphraseFile)], keyFile: keyFile, usesSystemdCredentials: false, usesKeyringCache: false)
        // The generation record in the bench's home, not the user's.
        configuration.stateFolder = stateFolder(home: home)
        let vault = VaultSecretStore(service: service, configuration: configuration)
        try vault.create(slots: [.keyFile, .passphrase])
        for index in 0..<items { try vault.setSecret(token + "-\(index)", forAccount: "token-\(index)") }
        return Setup(root: root, keyFile: keyFile, passphraseFile: passphraseFile, vault: vault)
    }

    /// Where the bench's vaults record their generations.
    static func stateFolder(home: BenchHome) -> String { home.path + "/state/rizq-prefs/vaults" }

    static func runGet(home: BenchHome, options: Options, python: String?, helper: String?) throws -> BenchResult {
        let setup = try setUp(home: home)
        let floor = try AgeDecryptFloor(vaultPath: setup.vault.folder + "/vault.age", keyFile: setup.keyFile)
        let reads = options.vaultReads
        // The peer's process may fail to start or die: that costs only its column.
        let peer: Result<KeyringHelper, BenchError>? = python.map { python in
            do {
                guard let helper else { throw BenchError("set RIZQ_BENCH_KEYRING_ALT_HELPER with RIZQ_BENCH_PYTHON") }
                return .success(try KeyringHelper(python: python, script: helper, service: service, account: "token-0", token: token + "-0", arguments: [home.path + "/crypted_pass.cfg"]))
            } catch {
                return .failure(BenchError("\(error)"))
            }
        }
        defer { if case .success(let helper)? = peer { helper.stop() } }
        var contenders = [
            Contender("ours") {
                try elapsedNanoseconds {
                    for step in 0..<reads {
                        guard try setup.vault.item(forAccount: "token-\(step % items)") != nil else { throw BenchError("a token is missing") }
                    }
                } / Double(reads)
            },
            Contender("floor") {
                try elapsedNanoseconds {
                    for _ in 0..<reads { guard try floor.decrypt() > 0 else { throw BenchError("empty vault") } }
                } / Double(reads)
            },
        ]
        if let peer, !options.oursOnly {
            contenders.append(.peer("python") {
                let times = try peer.get().time(calls: reads)
                return times.reduce(0, +) / Double(times.count)
            })
        }
        let medians = try options.sampler.medians(contenders)
        var result = BenchResult(workload: "vault-get", size: items, ours: medians.of("ours"))
        result.floor("read vault.age + decrypt with swift-crypto", medians.of("floor"))
        if peer != nil { result.peer("python keyring (keyrings.alt EncryptedKeyring) get_password", "python", in: medians) }
        return result
    }

    static func runSet(home: BenchHome, size: Int, options: Options) throws -> BenchResult {
        let setup = try setUp(home: home, items: size)
        let path = setup.vault.folder + "/vault.age"
        let disk = try DurableWriteFloor(home: home, suitePath: path)
        let records = try FileManager.default.contentsOfDirectory(atPath: stateFolder(home: home)).filter { $0.hasSuffix(".json") && !$0.hasPrefix(".") }
        guard records.count == 1, let record = records.first else { throw BenchError("expected one generation record in \(stateFolder(home: home)), found \(records)") }
        let vaultFloor = try VaultWriteFloor(home: home, vaultPath: path, keyFile: setup.keyFile, recordPath: stateFolder(home: home) + "/" + record)
        let operations = options.durableOperations
        var round = 0
        let contenders = [
            Contender("ours") {
                round += 1
                return try elapsedNanoseconds {
                    for step in 0..<operations { try setup.vault.setSecret(token + "-\(round)-\(step)", forAccount: "token-\(step % size)") }
                } / Double(operations)
            },
            Contender("floor") {
                let bytes = try DurableWriteFloor.bytes(of: path)
                var total = 0.0
                for _ in 0..<operations { total += try disk.write(bytes) }
                return total / Double(operations)
            },
            Contender("vault floor") {
                var total = 0.0
                for _ in 0..<operations { total += try vaultFloor.write() }
                return total / Double(operations)
            },
        ]
        let medians = try options.durableSampler.medians(contenders)
        var result = BenchResult(workload: "vault-set", size: size, ours: medians.of("ours"))
        result.floor("durable write of the same encrypted bytes", medians.of("floor"))
        result.floor("seal + age encryption (swift-crypto) + the same durable write + the generation record's", medians.of("vault floor"))
        return result
    }

    /// One row per key slot: a new store's first read.
    static func runUnlock(home: BenchHome, options: Options) throws -> [BenchResult] {
        let setup = try setUp(home: home)
        var slots: [(String, VaultConfiguration)] = []
        let base = VaultConfiguration(root: setup.root, usesSystemdCredentials: false, usesKeyringCache: false)
        var keyFile = base
        keyFile.keyFile = setup.keyFile
        slots.append(("key-file", keyFile))
        var passphrase = base
        passphrase.passphraseSources = [.file(setup.passphraseFile)]
        slots.append(("passphrase", passphrase))
        var cache = base
        cache.usesKeyringCache = true
        var cacheFilled = false
        do {
            let report = try VaultSecretStore(service: service, configuration: keyFile.with { $0.usesKeyringCache = true }).unlock(timeout: .seconds(600))
            cacheFilled = report.isCached
        } catch {
            cacheFilled = false
        }
        if cacheFilled { slots.append(("kernel-keyring", cache)) }
        if geteuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/systemd-creds") {
            var systemd = base
            systemd.usesSystemdCredentials = true
            try VaultSecretStore(service: service, configuration: keyFile.with { $0.usesSystemdCredentials = true }).addSlot(.systemdCredential)
            slots.append(("systemd-creds", systemd))
        }
        defer { _ = try? VaultSecretStore(service: service, configuration: cache).lock() }
        var results: [BenchResult] = []
        for (name, configuration) in slots {
            let contenders = [
                Contender("ours") {
                    try elapsedNanoseconds {
                        guard try VaultSecretStore(service: service, configuration: configuration).item(forAccount: "token-0") != nil else {
                            throw BenchError("the token is missing")
                        }
                    }
                },
            ]
            let medians = try options.slowSampler.medians(contenders)
            results.append(BenchResult(workload: "vault-unlock-\(name)", size: 1, ours: medians.of("ours"), unit: "ns"))
        }
        return results
    }
}

extension VaultConfiguration {
    /// A copy with `change` applied.
    func with(_ change: (inout VaultConfiguration) -> Void) -> VaultConfiguration {
        var copy = self
        change(&copy)
        return copy
    }
}
