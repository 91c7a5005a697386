// Used without its trait, this module compiles to this one error, which names the trait
// (every other file of the module is inside `#if CLI`).
#if !CLI
#error("rizq-prefs-secrets is built with the package trait CLI: swift build --traits CLI (or --enable-all-traits), as scripts/install does")
#endif
