import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Authenticates every request: a Basic or Bearer `Authorization` header from a token (Microya's form), a bearer
/// token from an `async` closure, a username and password (Basic), or an API key in a header or query parameter.
///
/// An `Authorization` header (or the API key's header or query parameter) that the endpoint, or an earlier plugin,
/// set wins: the plugin leaves it alone. For tokens that expire and must be refreshed when the server answers 401,
/// use ``TokenRefreshPlugin`` instead.
///
/// ```swift
/// let bearer = HttpAuthPlugin<TodoApi> { await session.validAccessToken() }
/// let basic = HttpAuthPlugin<TodoApi>(username: "ann", password: "pä:ss")
/// let apiKey = HttpAuthPlugin<WeatherApi>(apiKey: weatherKey, in: .header("X-Api-Key"))
/// ```
public final class HttpAuthPlugin<EndpointType: Endpoint>: Plugin<EndpointType>, @unchecked Sendable {
    /// Microya's form changes the request in `modifyRequest`; the others in `prepare`, where they may await or fail.
    override public var implementedHooks: PluginHooks {
        if case .token = credential { [] } else { [.prepare] }
    }

    /// The authentication scheme written before the token.
    public enum Scheme: String, Sendable {
        /// `Basic` (RFC 7617): the token is the Base64 of `user:password`.
        case basic = "Basic"
        /// `Bearer` (RFC 6750).
        case bearer = "Bearer"
    }

    private enum Credential {
        case token(Scheme, @Sendable () -> String?)
        case bearerToken(@Sendable () async throws -> String?)
        case basic(Result<String, InvalidCredentials>)
        case apiKey(String, Placement)
    }

    private let credential: Credential
    private let appliesTo: @Sendable (EndpointType) -> Bool

    /// Creates the plugin Microya's way: `scheme` and the token `tokenClosure` gives, set in
    /// ``Plugin/modifyRequest(_:endpoint:)`` for every request.
    /// - Parameters:
    ///   - scheme: The scheme written before the token.
    ///   - tokenClosure: Called for every request; `nil` sends no `Authorization` header.
    public init(scheme: Scheme, tokenClosure: @escaping @Sendable () -> String?) {
        credential = .token(scheme, tokenClosure)
        appliesTo = { _ in true }
    }

    /// Creates a plugin that sends `Authorization: Bearer <token>` (RFC 6750), with the token from an `async`
    /// closure called before each sending, e.g. reading a keychain or an actor that holds the session.
    ///
    /// A token that the closure cannot give (it throws) fails the request with
    /// ``ApiError/pluginFailed(plugin:error:)`` naming the closure's error; `nil` sends the request without the
    /// header.
    /// - Parameters:
    ///   - appliesTo: Which endpoints get the header; by default all.
    ///   - bearerToken: Called before each sending of each request the plugin applies to.
    public init(
        appliesTo: @escaping @Sendable (EndpointType) -> Bool = { _ in true },
        bearerToken: @escaping @Sendable () async throws -> String?
    ) {
        credential = .bearerToken(bearerToken)
        self.appliesTo = appliesTo
    }

    /// Creates a plugin that sends `Authorization: Basic …` (RFC 7617) from a username and a password.
    ///
    /// The credentials are normalized (Unicode NFC) and encoded as UTF-8 before Base64, so a password with `:` or
    /// non-ASCII characters arrives as given. A username with `:` cannot be told apart from the password on the
    /// server, and control characters are not allowed in either: such credentials fail each request with
    /// ``ApiError/pluginFailed(plugin:error:)`` (an ``InvalidCredentials``) instead of sending something else.
    /// - Parameters:
    ///   - username: Must not contain `:` or control characters.
    ///   - password: Must not contain control characters; `:` is fine.
    ///   - appliesTo: Which endpoints get the header; by default all.
    public init(
        username: String,
        password: String,
        appliesTo: @escaping @Sendable (EndpointType) -> Bool = { _ in true }
    ) {
        credential = .basic(Self.basicHeader(username: username, password: password))
        self.appliesTo = appliesTo
    }

    /// Creates a plugin that sends an API key in a header (e.g. `X-Api-Key`) or a query parameter (e.g. `api_key`).
    ///
    /// In a query parameter the key is percent-encoded like every other query value, so `+`, `&` and `=` arrive as
    /// themselves. Keys in URLs end up in server logs and proxies; prefer a header where the API allows it, and let
    /// the loggers' ``LogRedaction`` hide the parameter.
    /// - Parameters:
    ///   - apiKey: The key.
    ///   - placement: Where the key goes.
    ///   - appliesTo: Which endpoints get the key; by default all.
    public init(
        apiKey: String,
        in placement: Placement,
        appliesTo: @escaping @Sendable (EndpointType) -> Bool = { _ in true }
    ) {
        credential = .apiKey(apiKey, placement)
        self.appliesTo = appliesTo
    }

    override public func modifyRequest(_ request: inout URLRequest, endpoint: EndpointType) {
        guard case .token(let scheme, let tokenClosure) = credential,
            request.value(forHTTPHeaderField: "Authorization") == nil, let token = tokenClosure()
        else { return }
        AuthorizationHeader.set("\(scheme.rawValue) \(token)", on: &request)
    }

    override public func prepare(_ request: inout URLRequest, endpoint: EndpointType) async throws {
        guard appliesTo(endpoint) else { return }
        switch credential {
        case .token:
            return
        case .bearerToken(let token):
            guard request.value(forHTTPHeaderField: "Authorization") == nil, let token = try await token() else {
                return
            }
            AuthorizationHeader.set("Bearer \(token)", on: &request)
        case .basic(let header):
            AuthorizationHeader.set(try header.get(), on: &request)
        case .apiKey(let key, let placement):
            try Self.add(key, at: placement, to: &request)
        }
    }
}
