// swift-tools-version:6.1
import PackageDescription

// The benchmarks are a package of their own, so that the library gains no benchmark
// dependency. `scripts/bench` builds it in release mode (RizqBench and FleetBench beside the
// installed binaries, with their flags: scripts/build-static --package-path Benchmarks) and runs
// it on a temporary home.
let package = Package(
    name: "RizqBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        // CLI (which turns on Secrets, Fleet and Configuration): every trait, as scripts/build-static
        // builds the installed binaries with, so that the library's modules compile with the same
        // flags and scripts/bench builds RizqBench and FleetBench on theirs (.build-static).
        .package(name: "RizqPrefs", path: "..", traits: ["CLI"]),
        // The vault's floor decrypts with swift-crypto directly (the version RizqPrefs resolves).
        .package(url: "https://github.com/apple/swift-crypto", from: "4.5.2"),
        // FleetBench's floors (bare postgres-nio round trips); FleetBench's and mount-swap's peer
        // (swift-configuration's ReloadingFileProvider, behind the JSON and Reloading traits).
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-configuration", from: "1.4.0", traits: ["JSON", "Reloading"]),
        .package(url: "https://github.com/apple/swift-system", from: "1.8.1"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    ],
    targets: [
        .systemLibrary(
            name: "CGio",
            pkgConfig: "gio-2.0",
            providers: [.apt(["libglib2.0-dev"])]
        ),
        .systemLibrary(
            name: "CBenchSecret",
            pkgConfig: "libsecret-1",
            providers: [.apt(["libsecret-1-dev"])]
        ),
        // GSettings (a peer) and bare D-Bus calls to gnome-keyring (a floor), behind plain C.
        .target(
            name: "CBenchGLib",
            dependencies: ["CGio", "CBenchSecret"]
        ),
        // The parse floor of `open` (issue 28): simdjson (Debian's libsimdjson-dev) behind plain C.
        // SIMDJSON_THREADS_ENABLED as simdjson.pc's Cflags say: Debian's library was built with
        // it, and the layout of simdjson's parser depends on it.
        .target(
            name: "CSimdjsonFloor",
            cxxSettings: [.define("SIMDJSON_THREADS_ENABLED", to: "1")],
            linkerSettings: [.linkedLibrary("simdjson")]
        ),
        .executableTarget(
            name: "RizqBench",
            dependencies: [
                "CBenchGLib",
                "CSimdjsonFloor",
                .product(name: "RizqPrefs", package: "RizqPrefs"),
                .product(name: "RizqSecrets", package: "RizqPrefs"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "RizqSync", package: "RizqPrefs"),
                .product(name: "RizqMounts", package: "RizqPrefs"),
                // mount-swap's peer: swift-configuration's ReloadingFileProvider (JSON, Reloading).
                .product(name: "Configuration", package: "swift-configuration"),
                .product(name: "SystemPackage", package: "swift-system"),
            ]
        ),
        // The `startup` workload's processes (issue 39): ours, the floors and the Foundation peer
        // are runs of this one program. ParseFloor.swift, ReadFully.swift and Sampler.swift are
        // links to RizqBench's.
        .executableTarget(
            name: "StartupProbe",
            dependencies: [
                "CSimdjsonFloor",
                .product(name: "RizqPrefs", package: "RizqPrefs"),
            ]
        ),
        // The fleet suite's benchmarks (issue 26), run by scripts/bench under scripts/with-postgres.
        // Harness/BenchResult.swift and Harness/Sampler.swift are links to RizqBench's.
        .executableTarget(
            name: "FleetBench",
            dependencies: [
                .product(name: "RizqFleet", package: "RizqPrefs"),
                .product(name: "RizqPrefs", package: "RizqPrefs"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Configuration", package: "swift-configuration"),
                .product(name: "SystemPackage", package: "swift-system"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: [.enableUpcomingFeature("NonisolatedNonsendingByDefault")]
        ),
    ],
    swiftLanguageModes: [.v6],
    cxxLanguageStandard: .cxx17
)
