// Used without its trait, this executable compiles to this one error, which names the trait
// (every other file of it is inside `#if CLI`).
#if !CLI
#error("docker-credential-rizq is built with the package trait CLI: swift build --traits CLI (or --enable-all-traits), as scripts/install does")
#endif
