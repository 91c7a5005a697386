#if CLI
/// The package's version: the one place it is written. `rizq-prefs --version` prints it, and
/// scripts/install and scripts/package-deb take it from there (the manifest, the .deb's name
/// and its `Version:` field).
package enum PackageVersion {
    package static let current = "0.1.0"
}
#endif
