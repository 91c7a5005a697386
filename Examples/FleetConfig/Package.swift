// swift-tools-version:6.2
import PackageDescription

let package = Package(
    name: "FleetConfig",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "RizqPrefs", path: "../..", traits: ["Fleet"]),
        .package(url: "https://github.com/apple/swift-configuration", from: "1.4.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
    ],
    targets: [
        .executableTarget(
            name: "FleetConfig",
            dependencies: [
                .product(name: "RizqFleet", package: "RizqPrefs"),
                .product(name: "Configuration", package: "swift-configuration"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        )
    ],
    swiftLanguageModes: [.v6]
)
