import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Sends `Authorization: Bearer <token>` (RFC 6750), with the token from an `async` closure called before each
/// sending, e.g. reading a keychain or an actor that holds the session.
///
/// A token that the closure cannot give (it throws) fails the request with ``ApiError/pluginFailed(plugin:error:)``
/// naming the closure's error; `nil` sends the request without the header. For tokens that expire and must be
/// refreshed when the server answers 401, use ``TokenRefreshPlugin`` instead.
///
/// ```swift
/// let provider = ApiProvider<TodoApi>(plugins: [BearerAuthPlugin { await session.validAccessToken() }])
/// ```
public final class BearerAuthPlugin<EndpointType: Endpoint>: Plugin<EndpointType>, @unchecked Sendable {
    /// It sets its header in `prepare`.
    override var hooks: PluginHooks { [.prepare] }

    private let token: @Sendable () async throws -> String?
    private let appliesTo: @Sendable (EndpointType) -> Bool

    /// Creates the plugin.
    /// - Parameters:
    ///   - appliesTo: Which endpoints get the header; by default all. An endpoint's own `Authorization` wins.
    ///   - token: Called before each sending of each request the plugin applies to.
    public init(
        appliesTo: @escaping @Sendable (EndpointType) -> Bool = { _ in true },
        token: @escaping @Sendable () async throws -> String?
    ) {
        self.token = token
        self.appliesTo = appliesTo
    }

    override public func prepare(_ request: inout URLRequest, endpoint: EndpointType) async throws {
        guard appliesTo(endpoint), request.value(forHTTPHeaderField: "Authorization") == nil else { return }
        guard let token = try await token() else { return }
        AuthorizationHeader.set("Bearer \(token)", on: &request)
    }
}
