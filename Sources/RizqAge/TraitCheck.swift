// Used without its trait, this module compiles to this one error, which names the trait
// (every other file of the module is inside `#if Secrets`).
#if !Secrets
#error("RizqAge needs the package trait Secrets: depend on this package with .package(url: ..., branch: \"main\", traits: [\"Secrets\"])")
#endif
