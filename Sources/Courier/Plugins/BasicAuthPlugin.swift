import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Sends `Authorization: Basic …` (RFC 7617) from a username and a password.
///
/// The credentials are normalized (Unicode NFC) and encoded as UTF-8 before Base64, so a password with `:` or
/// non-ASCII characters arrives as given. A username with `:` cannot be told apart from the password on the server,
/// and control characters are not allowed in either: such credentials fail each request with
/// ``ApiError/pluginFailed(plugin:error:)`` instead of sending something else.
///
/// ```swift
/// let provider = ApiProvider<TodoApi>(plugins: [BasicAuthPlugin(username: "ann", password: "pä:ss")])
/// ```
public final class BasicAuthPlugin<EndpointType: Endpoint>: Plugin<EndpointType>, @unchecked Sendable {
    /// It sets its header in `prepare`.
    override var hooks: PluginHooks { [.prepare] }

    /// Why the credentials cannot be sent with Basic authentication.
    public struct InvalidCredentials: LocalizedError, Sendable {
        /// What is wrong, without the credentials themselves.
        public let reason: String
        public var errorDescription: String? { reason }
    }

    private let header: Result<String, InvalidCredentials>
    private let appliesTo: @Sendable (EndpointType) -> Bool

    /// Creates the plugin.
    /// - Parameters:
    ///   - username: Must not contain `:` or control characters.
    ///   - password: Must not contain control characters; `:` is fine.
    ///   - appliesTo: Which endpoints get the header; by default all. An endpoint's own `Authorization` wins.
    public init(
        username: String,
        password: String,
        appliesTo: @escaping @Sendable (EndpointType) -> Bool = { _ in true }
    ) {
        self.header = Self.header(username: username, password: password)
        self.appliesTo = appliesTo
    }

    override public func prepare(_ request: inout URLRequest, endpoint: EndpointType) async throws {
        guard appliesTo(endpoint) else { return }
        AuthorizationHeader.set(try header.get(), on: &request)
    }

    private static func header(username: String, password: String) -> Result<String, InvalidCredentials> {
        if username.contains(":") {
            return .failure(InvalidCredentials(reason: "a Basic auth username cannot contain \":\" (RFC 7617)"))
        }
        let hasControlCharacter = (username + password).unicodeScalars.contains {
            $0.properties.generalCategory == .control
        }
        if hasControlCharacter {
            return .failure(InvalidCredentials(reason: "Basic auth credentials cannot contain control characters"))
        }
        let userPass =
            username.precomposedStringWithCanonicalMapping + ":"
            + password.precomposedStringWithCanonicalMapping
        return .success("Basic " + Data(userPass.utf8).base64EncodedString())
    }
}
