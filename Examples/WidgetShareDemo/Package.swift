// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "WidgetShareDemo",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "RizqPrefs", path: "../..")],
    targets: [
        .executableTarget(name: "WidgetShareDemo", dependencies: [.product(name: "RizqPrefs", package: "RizqPrefs")])
    ],
    swiftLanguageModes: [.v6]
)
