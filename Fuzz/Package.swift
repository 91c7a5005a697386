// swift-tools-version:6.2
import Foundation
import PackageDescription

// libFuzzer targets for RizqPrefs (issue 18), in a package of their own so that the main package
// gains nothing. Each folder Sources/fuzz-NAME is one target: an executable whose main.swift
// hands its body to FuzzSupport.runFuzzer (libFuzzer's driver). scripts/fuzz builds them with
// -sanitize=fuzzer,address and runs them all. Adding one is a folder, a line in `targets`
// below, and a folder of seeds under Seeds/.
let targets: [(name: String, products: [String], libraries: [Target.Dependency])] = [
    ("fuzz-suite-file", ["RizqPrefs"], []),
    ("fuzz-import", ["RizqPrefs"], []),
    ("fuzz-round-trip", ["RizqPrefs"], []),
    ("fuzz-dump", ["RizqImport"], []),
    ("fuzz-plan", ["RizqImport"], []),
    ("fuzz-plist", ["RizqImport"], []),
    ("fuzz-chromium", ["RizqImport", "RizqProfiles"], ["CFuzzStores"]),
    ("fuzz-firefox", ["RizqImport", "RizqProfiles"], ["CFuzzStores"]),
]

let package = Package(
    name: "RizqFuzz",
    platforms: [.macOS(.v15)],
    products: targets.map { .executable(name: $0.name, targets: [$0.name]) },
    dependencies: [.package(name: "RizqPrefs", path: "..", traits: ["Secrets"])],
    targets: [
        .target(name: "FuzzSupport", dependencies: ["RizqPrefs", "RizqImport", "RizqCore"].map { .product(name: $0, package: "RizqPrefs") }),
        // LevelDB, SQLite and snappy, which the profile targets write their inputs with.
        .systemLibrary(name: "CFuzzStores", providers: [.apt(["libleveldb-dev", "libsqlite3-dev", "libsnappy-dev"])]),
    ] + targets.map { target in
        .executableTarget(
            name: target.name,
            dependencies: ["FuzzSupport"] + target.products.map { .product(name: $0, package: "RizqPrefs") } + target.libraries)
    },
    swiftLanguageModes: [.v6]
)
