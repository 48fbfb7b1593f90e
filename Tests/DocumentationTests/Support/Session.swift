/// Stands in for an app's session store in the snippets: the token it keeps, and how it gets a new one.
final class Session: Sendable {
    /// The access token as stored at the last sign-in.
    let accessToken = "token-1"

    /// A token that is still valid; a real store would refresh an expired one first.
    func validAccessToken() async -> String { accessToken }

    /// A new access token, as a sign-in service would hand it out.
    func refresh() async throws -> String { "token-2" }
}
