import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Sets the `Authorization` header from a token, with the Basic or Bearer scheme.
///
/// An `Authorization` header that the endpoint (or an earlier plugin) set wins: the plugin leaves it alone.
public final class HttpAuthPlugin<EndpointType: Endpoint>: Plugin<EndpointType>, @unchecked Sendable {
    /// It changes the request in `modifyRequest` alone.
    override var hooks: PluginHooks { [] }

    /// The authentication scheme written before the token.
    public enum Scheme: String, Sendable {
        /// `Basic` (RFC 7617): the token is the Base64 of `user:password`.
        case basic = "Basic"
        /// `Bearer` (RFC 6750).
        case bearer = "Bearer"
    }

    private let scheme: Scheme
    private let tokenClosure: @Sendable () -> String?

    /// Creates the plugin.
    /// - Parameters:
    ///   - scheme: The scheme written before the token.
    ///   - tokenClosure: Called for every request; `nil` sends no `Authorization` header.
    public init(scheme: Scheme, tokenClosure: @escaping @Sendable () -> String?) {
        self.scheme = scheme
        self.tokenClosure = tokenClosure
    }

    override public func modifyRequest(_ request: inout URLRequest, endpoint: EndpointType) {
        guard request.value(forHTTPHeaderField: "Authorization") == nil, let token = tokenClosure() else { return }
        AuthorizationHeader.set("\(scheme.rawValue) \(token)", on: &request)
    }
}
