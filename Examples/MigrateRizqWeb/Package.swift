// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "MigrateRizqWeb",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "RizqPrefs", path: "../..")],
    targets: [
        .executableTarget(
            name: "MigrateRizqWeb",
            dependencies: [
                .product(name: "RizqPrefs", package: "RizqPrefs"),
                .product(name: "RizqSecrets", package: "RizqPrefs"),
                .product(name: "RizqMigration", package: "RizqPrefs"),
            ]
        )
    ],
    swiftLanguageModes: [.v6]
)
