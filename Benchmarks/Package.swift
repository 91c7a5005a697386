// swift-tools-version:6.0
import PackageDescription

// The benchmarks are a package of their own, so that the library gains no benchmark
// dependency. `scripts/bench` builds it in release mode and runs it on a temporary home.
let package = Package(
    name: "RizqBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "RizqPrefs", path: "..")],
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
        .executableTarget(
            name: "RizqBench",
            dependencies: [
                "CBenchGLib",
                .product(name: "RizqPrefs", package: "RizqPrefs"),
                .product(name: "RizqSecrets", package: "RizqPrefs"),
                .product(name: "RizqSync", package: "RizqPrefs"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
