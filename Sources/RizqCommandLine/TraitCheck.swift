// Used without its trait, this module compiles to this one error, which names the trait
// (every other file of the module is inside `#if CLI`).
#if !CLI
#error("RizqCommandLine needs the package trait CLI: depend on this package with .package(url: ..., branch: \"main\", traits: [\"CLI\"])")
#endif
