// swift-tools-version:6.0
import PackageDescription

// The benchmarks are a package of their own, so that the library gains no benchmark
// dependency. `scripts/bench` builds it in release mode and runs it on a temporary home.
let package = Package(
    name: "RizqBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "RizqPrefs", path: "..")],
    targets: [
        .executableTarget(
            name: "RizqBench",
            dependencies: [
                .product(name: "RizqPrefs", package: "RizqPrefs"),
                .product(name: "RizqSecrets", package: "RizqPrefs"),
            ]
        )
    ],
    swiftLanguageModes: [.v6]
)
