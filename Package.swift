// swift-tools-version:6.2
import PackageDescription

// The modules, their arrows (checked against this file by scripts/check-architecture) and the
// paths data takes: docs/ARCHITECTURE.md. Settings that several targets need are stated once, here.

/// swift-configuration's provider requirements take nonisolated(nonsending) handlers (it builds
/// with this feature): the modules that implement its providers must match them.
let matchesSwiftConfiguration: [SwiftSetting] = [.enableUpcomingFeature("NonisolatedNonsendingByDefault")]
/// dlopen: in glibc itself since 2.34, in libdl before (the C shims that load libraries at run time).
let loadsLibrariesAtRunTime: [LinkerSetting] = [.linkedLibrary("dl")]

// An app pays only for what it imports, at resolution too: every package beyond swift-log is
// used under a package trait, and no trait is on by default. An app that imports RizqPrefs (or
// RizqCore, RizqSync) resolves swift-log and nothing else; one that imports RizqSecrets says
// `traits: ["Secrets"]` and resolves swift-crypto too; RizqConfiguration, RizqFleet and the
// executables likewise (README.md, "Which trait for which product"). A module used without its
// trait compiles to one error that names the trait (its TraitCheck.swift). This repository's
// scripts build with --enable-all-traits.

/// The product `name` of `package`, used only when `trait` is on (one trait per condition:
/// SwiftPM 6.2 read several as "all of", 6.3 as "any of").
func product(_ name: String, _ package: String, when trait: String) -> Target.Dependency {
    .product(name: name, package: package, condition: .when(traits: [trait]))
}
/// The target `name`, used only when `trait` is on.
func target(_ name: String, when trait: String) -> Target.Dependency {
    .target(name: name, condition: .when(traits: [trait]))
}

let package = Package(
    name: "RizqPrefs",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "RizqPrefs", targets: ["RizqPrefs"]),
        // What every layer shares, alone: SecretStore and InMemorySecretStore for an app's tests,
        // the app identity. No system library.
        .library(name: "RizqCore", targets: ["RizqCore"]),
        .library(name: "RizqSecrets", targets: ["RizqSecrets"]),
        // Folders the host mounts (a Kubernetes ConfigMap or Secret, Docker's secrets, systemd's
        // credentials) read as one generation and followed live, and `NAME_FILE` variables: a
        // product of its own, so that an app that only keeps preferences never compiles it.
        .library(name: "RizqMounts", targets: ["RizqMounts"]),
        .library(name: "RizqImport", targets: ["RizqImport"]),
        .library(name: "RizqProfiles", targets: ["RizqProfiles"]),
        // swift-configuration providers over suites and secrets: a product of its own, so that
        // apps that do not use swift-configuration never resolve it.
        .library(name: "RizqConfiguration", targets: ["RizqConfiguration"]),
        // Fleet suites over PostgreSQL (postgres-nio, NIO, service-lifecycle): a product of its
        // own, so that apps that do not share settings across hosts never build NIO.
        .library(name: "RizqFleet", targets: ["RizqFleet"]),
        // Preferences on several devices (Syncthing or any folder-sync engine), and
        // UbiquitousKeyValueStore: a product of its own.
        .library(name: "RizqSync", targets: ["RizqSync"]),
        .executable(name: "rizq-prefs", targets: ["rizq-prefs"]),
        // `rizq-prefs fleet …`, which rizq-prefs executes (as git runs its subcommands), so that
        // `rizq-prefs get` never loads NIO.
        .executable(name: "rizq-prefs-fleet", targets: ["rizq-prefs-fleet"]),
        // `rizq-prefs secret …`, `import-app` and `doctor`, executed the same way, so that
        // `rizq-prefs get` never loads swift-crypto.
        .executable(name: "rizq-prefs-secrets", targets: ["rizq-prefs-secrets"]),
        // git's credential helper on the secret chain (`git config credential.helper rizq`).
        .executable(name: "git-credential-rizq", targets: ["git-credential-rizq"]),
        // docker's credential helper on the secret chain (`"credsStore": "rizq"`).
        .executable(name: "docker-credential-rizq", targets: ["docker-credential-rizq"]),
    ],
    traits: [
        .trait(name: "Secrets", description: "RizqSecrets (the vault, the file keyring), RizqImport and RizqProfiles: swift-crypto."),
        .trait(name: "Configuration", description: "RizqConfiguration's providers: swift-configuration."),
        .trait(
            name: "Fleet", description: "RizqFleet, suites shared through PostgreSQL: postgres-nio, SwiftNIO, swift-nio-ssl, swift-service-lifecycle.",
            enabledTraits: ["Configuration"]),
        .trait(
            name: "CLI", description: "The rizq-prefs and rizq-prefs-fleet executables: swift-argument-parser, and every module they run.",
            enabledTraits: ["Secrets", "Fleet"]),
        .default(enabledTraits: []),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // Only the Logging trait (AccessLogger over swift-log, which we use anyway): not the
        // default JSON trait, nor Reloading (swift-metrics, swift-service-lifecycle) or YAML (Yams).
        .package(url: "https://github.com/apple/swift-configuration", from: "1.4.0", traits: ["Logging"]),
        // The vault's cryptography (X25519, HKDF, HMAC, ChaCha20-Poly1305; scrypt in CryptoExtras):
        // only RizqAge and RizqSecrets link it, never an app that only wants preferences.
        .package(url: "https://github.com/apple/swift-crypto", from: "4.5.2"),
        // Fleet suites only (RizqFleet, rizq-prefs-fleet): the PostgreSQL client, its event loops
        // and TLS, and the Service protocol of server apps.
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
    ],
    targets: [
        // The bottom module: what suites, secrets, the importer and the CLI share. No system library.
        // Debug builds can plan faults for its file layer's system calls (SystemCallFaults, as
        // swift-system's ENABLE_MOCKING): its tests inject EINTR, short writes and errors, and stop
        // a child before each call to kill it there. Release builds make the calls directly.
        .target(
            name: "RizqCore", dependencies: ["CLinuxFileCalls"],
            swiftSettings: [.define("RIZQ_FAULT_INJECTION", .when(configuration: .debug))]
        ),
        // Mounted folders and `NAME_FILE` variables over RizqCore's file layer: what RizqSecrets'
        // credential folders, RizqConfiguration's providers and `rizq-prefs get --mounted` read.
        .target(name: "RizqMounts", dependencies: ["RizqCore", "CLinuxFileCalls"]),
        // The JSON codec, internal (no product): a strict reader generic over what it builds, and
        // the writer's pieces; @inlinable, so that RizqPrefs specializes it for its values.
        .target(name: "RizqJSON"),
        // The one credential rule (CredentialRule.judge): import, schema moves, fleet suites and
        // device sync ask it whether a value may leave a suite or the machine. Internal.
        .target(name: "RizqCredentials", dependencies: ["RizqJSON"]),
        .target(
            name: "RizqPrefs",
            dependencies: ["RizqCore", "RizqJSON", "RizqCredentials", "CLinuxFileCalls", .product(name: "Logging", package: "swift-log")]
        ),
        // Declarations of the Linux file calls Swift's Glibc module leaves out (renameat2, the
        // extended-attribute calls): a header, no code, nothing to install.
        .systemLibrary(name: "CLinuxFileCalls"),
        // The C shim over libsecret, which it loads with dlopen at the first secret call: it links
        // neither libsecret nor GLib, and builds without their headers (CSecretShim.h says why).
        .target(
            name: "CSecretShim",
            linkerSettings: loadsLibrariesAtRunTime
        ),
        // The kernel key-retention calls (add_key, keyctl) that Swift cannot call itself: glibc's
        // keyctl() and syscall() are variadic. One C file, no library.
        .target(name: "CKernelKeyring"),
        // prctl (PR_SET_DUMPABLE), variadic in glibc like keyctl: one C file, no library.
        .target(name: "CProcessControl"),
        .target(
            name: "RizqSecrets",
            dependencies: [
                "RizqCore", "CSecretShim", "CKernelKeyring",
                // Credential folders (Backends/) are mounted folders.
                target("RizqMounts", when: "Secrets"),
                target("RizqAge", when: "Secrets"),
                product("Crypto", "swift-crypto", when: "Secrets"),
                // PBKDF2 and AES-CBC for libsecret's file keyring (FileKeyring/).
                product("CryptoExtras", "swift-crypto", when: "Secrets"),
                "CProcessControl",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The age v1 file format (c2sp.org/age) over swift-crypto: the vault's file format, so that
        // Debian's `age` tool can always read a vault. Internal: no product of its own.
        .target(
            name: "RizqAge",
            dependencies: [
                product("Crypto", "swift-crypto", when: "Secrets"),
                product("CryptoExtras", "swift-crypto", when: "Secrets"),
            ]
        ),
        .target(
            name: "RizqImport",
            dependencies: [
                "RizqCore", "RizqPrefs", "RizqJSON", "RizqCredentials", "RizqSecrets",
                // SHA-256 of an imported input (its record's digest).
                product("Crypto", "swift-crypto", when: "Secrets"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // LevelDB, SQLite and snappy for RizqProfiles, loaded with dlopen at their first use: the
        // C APIs come from Debian's -dev headers, nothing links the libraries (rizq-prefs starts
        // without them). The module maps below link them, for the tests that use them directly.
        .target(name: "CProfileLibraries", linkerSettings: loadsLibrariesAtRunTime),
        .systemLibrary(name: "CLevelDB", providers: [.apt(["libleveldb-dev"])]),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CSnappy", pkgConfig: "snappy", providers: [.apt(["libsnappy-dev"])]),
        .target(
            name: "RizqProfiles",
            dependencies: ["RizqCore", "RizqImport", "CProfileLibraries"]
        ),
        .target(
            name: "RizqConfiguration",
            dependencies: [
                "RizqPrefs", "RizqCore",
                target("RizqMounts", when: "Configuration"),
                product("Configuration", "swift-configuration", when: "Configuration"),
            ],
            swiftSettings: matchesSwiftConfiguration
        ),
        // Suites shared by a fleet of servers through PostgreSQL: docs/ARCHITECTURE.md, "RizqFleet".
        .target(
            name: "RizqFleet",
            dependencies: [
                "RizqCore", "RizqJSON", "RizqCredentials", "RizqPrefs",
                // Without Fleet, RizqFleet is only its TraitCheck error: it needs none of these.
                target("RizqConfiguration", when: "Fleet"),
                product("PostgresNIO", "postgres-nio", when: "Fleet"),
                product("NIOCore", "swift-nio", when: "Fleet"),
                product("NIOPosix", "swift-nio", when: "Fleet"),
                product("NIOSSL", "swift-nio-ssl", when: "Fleet"),
                product("ServiceLifecycle", "swift-service-lifecycle", when: "Fleet"),
                product("Configuration", "swift-configuration", when: "Fleet"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: matchesSwiftConfiguration
        ),
        // What both command-line tools share: output and its errors (one CLIError, the exit
        // statuses), the options they both take, value parsing and listing. Internal.
        .target(
            name: "RizqCommandLine",
            dependencies: [
                "RizqCore", "RizqPrefs", "RizqJSON",
                product("ArgumentParser", "swift-argument-parser", when: "CLI"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // `rizq-prefs fleet …` (rizq-prefs executes it), on the same command-line support and
        // the same main (CommandLineMain).
        .executableTarget(
            name: "rizq-prefs-fleet",
            dependencies: [
                "RizqPrefs", "RizqJSON",
                target("RizqFleet", when: "CLI"), target("RizqCommandLine", when: "CLI"),
                product("ArgumentParser", "swift-argument-parser", when: "CLI"),
            ]
        ),
        // Device sync: per-device replica files in a synced folder, merged key by key by change
        // stamp; UbiquitousKeyValueStore. RizqImport for its credential classifier only.
        .target(
            name: "RizqSync",
            dependencies: ["RizqCore", "RizqCredentials", "RizqPrefs", "RizqJSON", .product(name: "Logging", package: "swift-log")]
        ),
        .executableTarget(
            name: "rizq-prefs",
            dependencies: [
                "RizqPrefs", "RizqSync",
                // `get --mounted`, `watch --mounted`.
                target("RizqMounts", when: "CLI"),
                target("RizqCommandLine", when: "CLI"),
                product("ArgumentParser", "swift-argument-parser", when: "CLI"),
            ]
        ),
        // `rizq-prefs secret …`, `import-app` and `doctor` (rizq-prefs executes it): the commands
        // that need swift-crypto, the importers and the browser-profile readers, so that
        // `rizq-prefs get` never loads them.
        .executableTarget(
            name: "rizq-prefs-secrets",
            dependencies: [
                "RizqPrefs", "RizqJSON", "RizqSync",
                target("RizqSecrets", when: "CLI"), target("RizqImport", when: "CLI"), target("RizqProfiles", when: "CLI"),
                target("RizqCommandLine", when: "CLI"),
                product("ArgumentParser", "swift-argument-parser", when: "CLI"),
            ]
        ),
        // `git-credential-rizq`: git's credential-helper protocol over NetworkCredentialStore (the
        // chain), without argument-parser: git starts it once per request.
        .executableTarget(
            name: "git-credential-rizq",
            dependencies: ["RizqCore", target("RizqSecrets", when: "CLI")]
        ),
        // `docker-credential-rizq`: docker's credential-helper protocol over RegistryCredentialStore.
        .executableTarget(
            name: "docker-credential-rizq",
            dependencies: ["RizqCore", target("RizqSecrets", when: "CLI")]
        ),
        // A child process for the multi-process and crash tests: it drives a SuiteStore from
        // the command line so the tests can run several real writers against one file.
        .executableTarget(
            name: "rizq-prefs-test-child",
            dependencies: ["RizqPrefs", "RizqJSON"],
            path: "Tests/Support/PrefsChild"
        ),
        // A child process for the schema migration tests: opens a suite with a schema, so that
        // the tests can migrate from two processes at once and kill a migration half-way.
        .executableTarget(
            name: "rizq-schema-test-child",
            dependencies: ["RizqPrefs", "RizqSecrets", .product(name: "Logging", package: "swift-log")],
            path: "Tests/Support/SchemaChild"
        ),
        // A child process for the secret tests that need another environment (no session bus).
        .executableTarget(
            name: "rizq-secrets-test-child",
            dependencies: ["RizqSecrets", "RizqImport", "RizqPrefs", .product(name: "Logging", package: "swift-log")],
            path: "Tests/Support/SecretsChild"
        ),
        // A child process for the vault tests: drives a VaultSecretStore (several writers killed
        // with -9, another uid, a seccomp filter, strace), secrets on stdin/stdout only.
        .executableTarget(
            name: "rizq-vault-test-child",
            dependencies: ["RizqSecrets"],
            path: "Tests/Support/VaultChild"
        ),
        // A child process for the file layer's tests: one file operation (a replace, a journal, a
        // lock, a read by another user), stopped before each system call for a kill -9 there.
        .executableTarget(
            name: "rizq-files-test-child",
            dependencies: ["RizqCore"],
            path: "Tests/Support/FilesChild"
        ),
        // A child process for the profile tests: holds a LevelDB open (its LOCK taken), as a
        // running browser does, while the test reads the profile.
        .executableTarget(
            name: "rizq-profiles-test-child",
            dependencies: ["CLevelDB"],
            path: "Tests/Support/ProfilesChild"
        ),
        // A child process that writes settings with Foundation's own UserDefaults (a plist under
        // $XDG_CONFIG_HOME), for the tests that import what Foundation on Linux wrote.
        .executableTarget(
            name: "foundation-defaults-test-child",
            path: "Tests/Support/DefaultsChild"
        ),
        // The examples (Examples/NAME: each also a package of its own, the app to copy), built
        // here from the same files, so that scripts/demo builds this package once for all of them
        // and for rizq-prefs (one build folder, .build). Not products: an app never builds them.
        .executableTarget(name: "SettingsDemo", dependencies: ["RizqPrefs"], path: "Examples/SettingsDemo/Sources/SettingsDemo"),
        .executableTarget(name: "WidgetShareDemo", dependencies: ["RizqPrefs"], path: "Examples/WidgetShareDemo/Sources/WidgetShareDemo"),
        .executableTarget(name: "SeedApp", dependencies: ["RizqPrefs", "RizqSecrets"], path: "Examples/SeedApp/Sources/SeedApp"),
        .executableTarget(
            name: "ImportRizqWeb", dependencies: ["RizqPrefs", "RizqSecrets", "RizqImport"], path: "Examples/ImportRizqWeb/Sources/ImportRizqWeb"),
        // Examples/ConfigServer's sources as they are (the folder links to them), built here so
        // that ConfigServerExampleTests runs the example itself: start, a live change, the exit.
        .executableTarget(
            name: "config-server-example",
            dependencies: [
                "RizqConfiguration", "RizqSecrets",
                product("Configuration", "swift-configuration", when: "Configuration"),
            ],
            path: "Tests/Support/ConfigServer"
        ),
        // A child process for the fleet tests: one "host" with a fleet suite (its own cache),
        // driven by lines on stdin, reporting what it sees on stdout.
        .executableTarget(
            name: "rizq-fleet-test-child",
            dependencies: ["RizqFleet", "RizqPrefs"],
            path: "Tests/Support/FleetChild"
        ),
        // Examples/FleetConfig's sources as they are (the folder links to them): two of these
        // read a flag through ConfigReader while `rizq-prefs fleet set` changes it.
        .executableTarget(
            name: "fleet-config-example",
            dependencies: [
                "RizqFleet",
                product("Configuration", "swift-configuration", when: "Fleet"),
                product("ServiceLifecycle", "swift-service-lifecycle", when: "Fleet"),
            ],
            path: "Tests/Support/FleetConfig"
        ),
        // A child process for the device-sync tests: one device running DeviceSync (started, as
        // an app runs it), driven line by line; under scripts/with-clock-offset for a fast clock.
        .executableTarget(
            name: "rizq-sync-test-child",
            dependencies: ["RizqSync", "RizqPrefs", "RizqJSON"],
            path: "Tests/Support/SyncChild"
        ),
        // What several test targets share: running commands, read-only folders, file search.
        .target(
            name: "RizqTestSupport",
            path: "Tests/Support/Shared"
        ),
        .testTarget(
            name: "RizqPrefsTests",
            dependencies: ["RizqTestSupport", "RizqPrefs", "RizqJSON", .product(name: "Logging", package: "swift-log")]
        ),
        .testTarget(
            name: "RizqSecretsTests",
            dependencies: [
                "RizqTestSupport", "RizqSecrets", "RizqPrefs", "rizq-secrets-test-child", "git-credential-rizq", "docker-credential-rizq",
                .product(name: "Logging", package: "swift-log"),
            ],
            // libsecret's file keyrings (the vectors) and their expected contents.
            exclude: ["FileKeyring/Fixtures"]
        ),
        // The age format (the C2SP test vectors, Debian's `age` both ways) and the vault.
        .testTarget(
            name: "RizqVaultTests",
            dependencies: [
                "RizqTestSupport", "RizqAge", "RizqSecrets", "rizq-vault-test-child",
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            exclude: ["Fixtures", "Scripts"]
        ),
        // The one credential rule: its shapes and families, and a held-out corpus judged the same
        // through the importer, schema moves, fleet suites and device sync.
        .testTarget(
            name: "RizqCredentialsTests",
            dependencies: ["RizqTestSupport", "RizqCredentials", "RizqPrefs", "RizqImport", "RizqFleet", "RizqSync", "RizqJSON"],
            exclude: ["Fixtures"]
        ),
        .testTarget(
            name: "RizqCoreTests",
            dependencies: ["RizqTestSupport", "RizqCore", "rizq-files-test-child"]
        ),
        // Mounted folders: kubelet's real write sequence (scripts/kubelet-writer), inotify, NAME_FILE.
        .testTarget(
            name: "RizqMountsTests",
            dependencies: ["RizqTestSupport", "RizqMounts", "RizqCore"]
        ),
        .testTarget(
            name: "RizqImportTests",
            dependencies: ["RizqTestSupport", "RizqJSON", "RizqCredentials", "RizqImport", "RizqPrefs", "RizqSecrets"]
        ),
        .testTarget(
            name: "RizqProfilesTests",
            dependencies: [
                "RizqTestSupport", "RizqProfiles", "RizqImport", "RizqPrefs", "RizqSecrets", "CLevelDB", "CSQLite", "CSnappy",
                "rizq-profiles-test-child", "rizq-prefs",
            ]
        ),
        .testTarget(
            name: "RizqConfigurationTests",
            dependencies: [
                "RizqTestSupport", "RizqConfiguration", "RizqPrefs", "RizqSecrets", "rizq-prefs", "config-server-example",
                .product(name: "Configuration", package: "swift-configuration"),
                .product(name: "ConfigurationTesting", package: "swift-configuration"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "InMemoryLogging", package: "swift-log"),
            ]
        ),
        // Fleet suites against a real PostgreSQL (scripts/with-postgres; the crash tests start
        // their own with --serve).
        .testTarget(
            name: "RizqFleetTests",
            dependencies: [
                "RizqTestSupport", "RizqFleet", "RizqPrefs", "RizqConfiguration", "rizq-prefs", "rizq-prefs-fleet",
                "rizq-fleet-test-child", "fleet-config-example",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Configuration", package: "swift-configuration"),
                .product(name: "ConfigurationTesting", package: "swift-configuration"),
            ]
        ),
        // Device sync: the merge, the replica files, initial sync, limits, secrets, conflict
        // copies, UbiquitousKeyValueStore; and two real Syncthing instances (scripts/with-syncthing).
        .testTarget(
            name: "RizqSyncTests",
            dependencies: ["RizqTestSupport", "RizqSync", "RizqPrefs", "RizqJSON", "RizqCredentials", "rizq-sync-test-child", "rizq-prefs"]
        ),
        .testTarget(
            name: "CLITests",
            dependencies: ["RizqTestSupport", "RizqPrefs", "RizqJSON", "RizqCommandLine", "rizq-prefs", "rizq-prefs-secrets", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        // Examples/SeedApp's sources, compiled as they are (SeedApp/ links to them), and checked.
        // A target of its own: the seed's `typealias UserDefaults = SuiteStore` is module-wide.
        .testTarget(
            name: "SeedAppTests",
            dependencies: ["RizqTestSupport", "RizqPrefs", "rizq-prefs"]
        ),
    ],
    swiftLanguageModes: [.v6]
)

// The DocC plugin, only for scripts/docs (RIZQ_PREFS_DOCS=1): apps that depend on this package
// never resolve it.
if Context.environment["RIZQ_PREFS_DOCS"] != nil {
    package.dependencies.append(.package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"))
}
