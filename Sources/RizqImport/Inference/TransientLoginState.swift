#if Secrets
/// Keys that hold a sign-in in progress rather than a setting or a credential: the state, nonce
/// and PKCE verifier an OAuth/OpenID Connect library keeps between the redirect to the identity
/// provider and the return from it. They are useless after the sign-in (or a day later) and are
/// skipped, with this reason in the report.
///
/// - Keycloak (keycloak-js): `kc-callback-<state>`.
/// - oidc-client-ts / oidc-client: `oidc.<state id>` (but not `oidc.user:…`, which holds the
///   signed-in user's tokens and is a credential).
/// - PKCE verifiers: any key whose name contains `pkce`, `code_verifier` or `codeVerifier`.
package enum TransientLoginState {
    /// Why `key` is transient login state, or `nil` when it is not.
    package static func reason(forKey key: String) -> String? {
        if key.hasPrefix("kc-callback-") {
            return "transient login state: a Keycloak sign-in callback (kc-callback-*)"
        }
        if key.hasPrefix("oidc."), !key.hasPrefix("oidc.user:") {
            return "transient login state: an OpenID Connect sign-in request (oidc.*)"
        }
        let lowered = key.lowercased()
        if lowered.contains(ascii: "pkce") || lowered.contains(ascii: "code_verifier") || lowered.contains(ascii: "codeverifier") {
            return "transient login state: a PKCE code verifier"
        }
        return nil
    }
}
#endif
