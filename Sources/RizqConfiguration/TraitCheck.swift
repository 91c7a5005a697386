// Used without its trait, this module compiles to this one error, which names the trait
// (every other file of the module is inside `#if Configuration`).
#if !Configuration
#error("RizqConfiguration needs the package trait Configuration: depend on this package with .package(url: ..., branch: \"main\", traits: [\"Configuration\"])")
#endif
