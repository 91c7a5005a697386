// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "SettingsDemo",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "RizqPrefs", path: "../..")],
    targets: [
        .executableTarget(name: "SettingsDemo", dependencies: [.product(name: "RizqPrefs", package: "RizqPrefs")])
    ],
    swiftLanguageModes: [.v6]
)
