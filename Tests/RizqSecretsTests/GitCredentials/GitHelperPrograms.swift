import Foundation
import RizqTestSupport
import XCTest

/// The programs the git credential-helper tests run: ours as built, and git's own
/// git-credential-libsecret, compiled once per test build from the source Debian's `git` package
/// ships (/usr/share/doc/git/contrib/credential/libsecret), with libsecret's and GLib's headers
/// (scripts/install-deps test).
enum GitHelperPrograms {
    /// The built `git-credential-rizq`.
    static var ours: String { productsFolder + "/git-credential-rizq" }

    /// The built `docker-credential-rizq`.
    static var docker: String { productsFolder + "/docker-credential-rizq" }

    /// A client of docker-credential-helpers' own client library (the Go package docker's CLI
    /// calls helpers through, whose source Debian ships in
    /// golang-github-docker-docker-credential-helpers-dev), built beside the products the first
    /// time it is asked for: `client HELPER store URL USER` (the secret in $SECRET), `get URL`,
    /// `erase URL`, `list`, each printing one line of what the library returned.
    static func dockerClient() throws -> String {
        try builtOnce("docker-credential-client", from: "/usr/share/gocode/src/github.com/docker/docker-credential-helpers/client",
                      package: "golang-github-docker-docker-credential-helpers-dev") { output in
            let folder = output + ".go"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: folder) }
            try Data(dockerClientSource.utf8).write(to: URL(fileURLWithPath: folder + "/client.go"))
            var environment = ProcessInfo.processInfo.environment
            environment["GOPATH"] = "/usr/share/gocode"
            environment["GO111MODULE"] = "off"
            environment["GOCACHE"] = goCache
            environment["GOFLAGS"] = ""
            return try runCommand("/usr/bin/go", ["build", "-o", output, folder + "/client.go"], environment: environment)
        }
    }

    /// Go's build cache for both Go programs, beside the products: Go's standard packages compile
    /// once for the two (Go locks its cache, so two tests may build at once).
    private static var goCache: String { productsFolder + "/go-build-cache" }

    /// docker-credential-pass, built from the source Debian ships beside the client library:
    /// the helper an import moves logins out of (it keeps them in `pass`, encrypted with gpg).
    static func dockerPassHelper() throws -> String {
        let source = "/usr/share/gocode/src/github.com/docker/docker-credential-helpers/pass/cmd"
        return try builtOnce("docker-credential-pass", from: source, package: "golang-github-docker-docker-credential-helpers-dev") { output in
            var environment = ProcessInfo.processInfo.environment
            environment["GOPATH"] = "/usr/share/gocode"
            environment["GO111MODULE"] = "off"
            environment["GOCACHE"] = goCache
            environment["GOFLAGS"] = ""
            return try runCommand("/usr/bin/go", ["build", "-o", output, "github.com/docker/docker-credential-helpers/pass/cmd"], environment: environment)
        }
    }

    private static let dockerClientSource = """
        package main

        import (
        \t"fmt"
        \t"os"
        \t"sort"

        \t"github.com/docker/docker-credential-helpers/client"
        \t"github.com/docker/docker-credential-helpers/credentials"
        )

        func main() {
        \tprogram := client.NewShellProgramFunc(os.Args[1])
        \tswitch os.Args[2] {
        \tcase "store":
        \t\terr := client.Store(program, &credentials.Credentials{ServerURL: os.Args[3], Username: os.Args[4], Secret: os.Getenv("SECRET")})
        \t\tfmt.Printf("store: err=%v\\n", err)
        \tcase "get":
        \t\tcreds, err := client.Get(program, os.Args[3])
        \t\tif err != nil {
        \t\t\tfmt.Printf("get: notfound=%v err=%v\\n", credentials.IsErrCredentialsNotFound(err), err)
        \t\t\treturn
        \t\t}
        \t\tfmt.Printf("get: url=%s user=%s secret=%s\\n", creds.ServerURL, creds.Username, creds.Secret)
        \tcase "erase":
        \t\tfmt.Printf("erase: err=%v\\n", client.Erase(program, os.Args[3]))
        \tcase "list":
        \t\tlisted, err := client.List(program)
        \t\tkeys := []string{}
        \t\tfor url := range listed {
        \t\t\tkeys = append(keys, url)
        \t\t}
        \t\tsort.Strings(keys)
        \t\tfor _, url := range keys {
        \t\t\tfmt.Printf("list: %s=%s\\n", url, listed[url])
        \t\t}
        \t\tfmt.Printf("list: err=%v\\n", err)
        \t}
        }
        """

    /// git's libsecret helper, built beside the products the first time it is asked for.
    static func libsecretHelper() throws -> String {
        let source = "/usr/share/doc/git/contrib/credential/libsecret/git-credential-libsecret.c"
        return try builtOnce("git-credential-libsecret", from: source, package: "git") { output in
            try runCommand("/bin/sh", ["-c", "cc -o \"$1\" \"$2\" $(pkg-config --cflags --libs libsecret-1 glib-2.0)", "sh", output, source])
        }
    }

    /// The program `name` beside the products, built by `build` (given the path to write) the
    /// first time: from `source`, which Debian's `package` ships (scripts/install-deps test).
    private static func builtOnce(
        _ name: String, from source: String, package: String, _ build: (String) throws -> (status: Int32, stdout: String, stderr: String)
    ) throws -> String {
        let built = productsFolder + "/" + name
        if FileManager.default.isExecutableFile(atPath: built) { return built }
        guard FileManager.default.fileExists(atPath: source) else {
            XCTFail("\(source) is missing: scripts/install-deps test installs \(package)")
            throw XCTSkip("no source for \(name)")
        }
        let partial = built + ".\(getpid())"
        let compiled = try build(partial)
        guard compiled.status == 0 else {
            XCTFail("building \(name) failed: \(compiled.stderr)")
            throw XCTSkip("\(name) did not build")
        }
        // Renamed into place whole, so that a parallel test never runs half a file.
        guard rename(partial, built) == 0 else { throw POSIXError(.EIO) }
        return built
    }
}
