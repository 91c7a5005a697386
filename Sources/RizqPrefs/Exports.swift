// `import RizqPrefs` also brings what every layer shares (`RizqCore`): `AppIdentity`, and the
// `SecretStore` protocol with `InMemorySecretStore` — so that a schema stage can move a key into
// any secret store, with no libsecret in an app that only wants preferences.
@_exported import RizqCore
