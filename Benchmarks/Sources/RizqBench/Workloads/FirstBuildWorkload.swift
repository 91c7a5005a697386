import Foundation

/// `first-resolve` and `first-build`: what a new app pays to start using a product — a one-file
/// app that depends on this repository by path, with the traits the product needs (README,
/// "Which trait for which product"), resolved (`swift package resolve`) and then built from
/// nothing (`swift build`, debug, as a developer's first build), each timed whole. The peer is the
/// same app against swift-log alone (the one package RizqPrefs resolves besides itself).
///
/// Resolution runs from SwiftPM's shared repository cache (the machine has no network but its
/// package registries): a first resolution on a new machine pays the clones on top. A build is
/// one sample (minutes for RizqFleet); a resolution the median of three, each from a fresh app
/// folder. `--quick` resolves the RizqPrefs app and the peer, and builds nothing.
///
/// SwiftPM keeps its caches under the user's home: scripts/bench passes it in
/// `RIZQ_BENCH_SWIFTPM_HOME` (the bench itself runs on a temporary one).
enum FirstBuildWorkload {
    /// One app: the product it imports and the traits it names.
    struct App {
        var product: String
        var traits: [String]
        var source: String
    }

    static let apps = [
        App(product: "RizqPrefs", traits: [], source: "import RizqPrefs\nlet suite = try SuiteStore(suite: \"first.build\")\nprint(suite.bool(forKey: \"enabled\"))"),
        App(product: "RizqSecrets", traits: ["Secrets"], source: "import RizqSecrets\nprint(SecretBackendName.vault)"),
        App(product: "RizqFleet", traits: ["Fleet"], source: "import RizqFleet\nprint(FleetSuite.self)"),
    ]

    static func run(home: BenchHome, options: Options, repository: String?) throws -> [BenchResult] {
        guard let repository, !repository.isEmpty else { throw BenchError("first-build: set RIZQ_BENCH_REPO to the repository (scripts/bench does)") }
        guard let swiftHome = ProcessInfo.processInfo.environment["RIZQ_BENCH_SWIFTPM_HOME"], !swiftHome.isEmpty else {
            throw BenchError("first-build: set RIZQ_BENCH_SWIFTPM_HOME to the home SwiftPM keeps its caches in (scripts/bench does)")
        }
        // SwiftPM's caches and configuration are the user's (this workload runs in a process of its own).
        setenv("HOME", swiftHome, 1)
        unsetenv("XDG_CONFIG_HOME")
        unsetenv("XDG_CACHE_HOME")
        let swift = try findSwift()
        let folder = home.path + "/first-build"
        let peer = App(product: "Logging", traits: [], source: "import Logging\nprint(Logger(label: \"first.build\").logLevel)")
        let chosen = options.quick ? Array(apps.prefix(1)) : apps
        let resolutions = options.quick ? 1 : 3

        var results: [BenchResult] = []
        let peerResolve = try median((0..<resolutions).map { round in
            try resolve(peer, swift: swift, folder: folder + "/peer-resolve-\(round)", repository: repository)
        })
        let peerBuild = options.quick ? nil : try build(peer, swift: swift, folder: folder + "/peer-build", repository: repository)
        for app in chosen {
            progress("  first-build: \(app.product)")
            let resolveTimes = try (0..<resolutions).map { round in
                try resolve(app, swift: swift, folder: folder + "/\(app.product)-resolve-\(round)", repository: repository)
            }
            var resolved = BenchResult(workload: "first-resolve \(app.product)", size: 1, ours: median(resolveTimes), unit: "ns")
            resolved.peer("swift-log alone (the same app resolving only swift-log)", peerResolve)
            results.append(resolved)
            if let peerBuild {
                let built = try build(app, swift: swift, folder: folder + "/\(app.product)-build", repository: repository)
                var row = BenchResult(workload: "first-build \(app.product)", size: 1, ours: built, unit: "ns")
                row.peer("swift-log alone (the same app built against swift-log only)", peerBuild)
                results.append(row)
            }
        }
        try? FileManager.default.removeItem(atPath: folder)
        return results
    }

    /// Writes `app` into `folder` (an app of its own: manifest, one source file).
    private static func write(_ app: App, to folder: String, repository: String) throws {
        try? FileManager.default.removeItem(atPath: folder)
        try FileManager.default.createDirectory(atPath: folder + "/Sources/App", withIntermediateDirectories: true)
        let dependency = app.product == "Logging"
            ? ".package(url: \"https://github.com/apple/swift-log\", from: \"1.16.2\")"
            : ".package(name: \"RizqPrefs\", path: \"\(repository)\"\(app.traits.isEmpty ? "" : ", traits: [\(app.traits.map { "\"\($0)\"" }.joined(separator: ", "))]"))"
        let package = app.product == "Logging" ? "swift-log" : "RizqPrefs"
        let manifest = """
            // swift-tools-version:6.2
            import PackageDescription
            let package = Package(
                name: "FirstBuild",
                dependencies: [\(dependency)],
                targets: [.executableTarget(name: "App", dependencies: [.product(name: "\(app.product)", package: "\(package)")])]
            )

            """
        try Data(manifest.utf8).write(to: URL(fileURLWithPath: folder + "/Package.swift"))
        try Data((app.source + "\n").utf8).write(to: URL(fileURLWithPath: folder + "/Sources/App/main.swift"))
    }

    /// Nanoseconds `swift package resolve` takes for a fresh copy of `app`.
    private static func resolve(_ app: App, swift: String, folder: String, repository: String) throws -> Double {
        try write(app, to: folder, repository: repository)
        return try timed(swift, ["package", "--package-path", folder, "--scratch-path", folder + "/.build", "resolve"], what: "resolving the \(app.product) app")
    }

    /// Nanoseconds a first `swift build` (debug) of `app` takes, resolved first (not timed).
    private static func build(_ app: App, swift: String, folder: String, repository: String) throws -> Double {
        _ = try resolve(app, swift: swift, folder: folder, repository: repository)
        return try timed(swift, ["build", "--package-path", folder, "--scratch-path", folder + "/.build"], what: "building the \(app.product) app")
    }

    /// Nanoseconds `swift ARGUMENTS` takes; its output goes to a log beside the app's folder,
    /// shown when it fails.
    private static func timed(_ swift: String, _ arguments: [String], what: String) throws -> Double {
        let log = (arguments[arguments.firstIndex(of: "--package-path").map { $0 + 1 } ?? 0] as NSString).appendingPathExtension("log") ?? "/dev/null"
        var status: Int32 = 0
        let elapsed = try elapsedNanoseconds {
            let child = try ChildProcess(swift, arguments, errorPath: log)
            _ = child.readAll()
            status = try child.wait()
        }
        guard status == 0 else {
            let tail = (try? String(contentsOfFile: log, encoding: .utf8)).map { String($0.suffix(2_000)) } ?? "(no log)"
            throw BenchError("first-build: \(what) failed (swift \(arguments.joined(separator: " ")), status \(status)):\n\(tail)")
        }
        return elapsed
    }

    /// The `swift` driver on PATH.
    private static func findSwift() throws -> String {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for folder in path.split(separator: ":") where FileManager.default.isExecutableFile(atPath: "\(folder)/swift") {
            return "\(folder)/swift"
        }
        throw BenchError("first-build: no swift on PATH (\(path))")
    }
}
