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

    /// git's libsecret helper, built beside the products the first time it is asked for.
    static func libsecretHelper() throws -> String {
        let built = productsFolder + "/git-credential-libsecret"
        if FileManager.default.isExecutableFile(atPath: built) { return built }
        let source = "/usr/share/doc/git/contrib/credential/libsecret/git-credential-libsecret.c"
        guard FileManager.default.fileExists(atPath: source) else {
            XCTFail("\(source) is missing: Debian's git package ships it (scripts/install-deps test installs git)")
            throw XCTSkip("no libsecret helper source")
        }
        let partial = built + ".\(getpid())"
        let compiled = try runCommand("/bin/sh", ["-c", "cc -o \"$1\" \"$2\" $(pkg-config --cflags --libs libsecret-1 glib-2.0)", "sh", partial, source])
        guard compiled.status == 0 else {
            XCTFail("building git-credential-libsecret failed: \(compiled.stderr)")
            throw XCTSkip("libsecret helper did not build")
        }
        // Renamed into place whole, so that a parallel test never runs half a file.
        guard rename(partial, built) == 0 else { throw POSIXError(.EIO) }
        return built
    }
}
