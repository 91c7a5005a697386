// Used without its trait, this module compiles to this one error, which names the trait
// (every other file of the module is inside `#if Fleet`).
#if !Fleet
#error("RizqFleet needs the package trait Fleet: depend on this package with .package(url: ..., branch: \"main\", traits: [\"Fleet\"])")
#endif
