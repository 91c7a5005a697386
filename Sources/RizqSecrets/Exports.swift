#if Secrets
// `import RizqSecrets` also brings the libsecret-free half of the API — `SecretStore`,
// `InMemorySecretStore`, `SecretError`, `AppIdentity` — which lives in `RizqCore` so that an
// app's tests can use the in-memory store without linking libsecret (as swift-log ships
// `InMemoryLogging`).
@_exported import RizqCore
#endif
