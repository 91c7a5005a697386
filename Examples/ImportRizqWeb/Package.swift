// swift-tools-version:6.2
import PackageDescription

let package = Package(
    name: "ImportRizqWeb",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "RizqPrefs", path: "../..", traits: ["Secrets"])],
    targets: [
        .executableTarget(
            name: "ImportRizqWeb",
            dependencies: [
                .product(name: "RizqPrefs", package: "RizqPrefs"),
                .product(name: "RizqSecrets", package: "RizqPrefs"),
                .product(name: "RizqImport", package: "RizqPrefs"),
            ]
        )
    ],
    swiftLanguageModes: [.v6]
)
