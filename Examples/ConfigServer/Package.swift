// swift-tools-version:6.2
import PackageDescription

let package = Package(
    name: "ConfigServer",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "RizqPrefs", path: "../..", traits: ["Configuration", "Secrets"]),
        .package(url: "https://github.com/apple/swift-configuration", from: "1.4.0"),
    ],
    targets: [
        .executableTarget(
            name: "ConfigServer",
            dependencies: [
                .product(name: "RizqConfiguration", package: "RizqPrefs"),
                .product(name: "RizqSecrets", package: "RizqPrefs"),
                .product(name: "Configuration", package: "swift-configuration"),
            ]
        )
    ],
    swiftLanguageModes: [.v6]
)
