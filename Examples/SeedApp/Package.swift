// swift-tools-version:6.2
import PackageDescription

let package = Package(
    name: "SeedApp",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "RizqPrefs", path: "../..", traits: ["Secrets"])],
    targets: [
        .executableTarget(name: "SeedApp", dependencies: [
            .product(name: "RizqPrefs", package: "RizqPrefs"),
            .product(name: "RizqSecrets", package: "RizqPrefs"),
        ])
    ],
    swiftLanguageModes: [.v6]
)
