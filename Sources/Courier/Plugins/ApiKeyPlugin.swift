import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Sends an API key in a header (e.g. `X-Api-Key`) or a query parameter (e.g. `api_key`).
///
/// In a query parameter the key is percent-encoded like every other query value, so `+`, `&` and `=` arrive as
/// themselves. A header or query parameter of the same name that the endpoint sets wins. Keys in URLs end up in
/// server logs and proxies; prefer a header where the API allows it, and let ``LoggingPlugin`` redact the
/// parameter's name.
///
/// ```swift
/// let provider = ApiProvider<WeatherApi>(plugins: [ApiKeyPlugin(key: apiKey, in: .header("X-Api-Key"))])
/// ```
public final class ApiKeyPlugin<EndpointType: Endpoint>: Plugin<EndpointType>, @unchecked Sendable {
    /// It sets its header in `prepare`.
    override var hooks: PluginHooks { [.prepare] }

    /// Where the key goes.
    public enum Placement: Sendable {
        /// A request header with this name.
        case header(String)
        /// A query parameter with this name, appended after the endpoint's own.
        case queryParameter(String)
    }

    private let key: String
    private let placement: Placement
    private let appliesTo: @Sendable (EndpointType) -> Bool

    /// Creates the plugin.
    /// - Parameters:
    ///   - key: The API key.
    ///   - placement: Where the key goes.
    ///   - appliesTo: Which endpoints get the key; by default all.
    public init(
        key: String,
        in placement: Placement,
        appliesTo: @escaping @Sendable (EndpointType) -> Bool = { _ in true }
    ) {
        self.key = key
        self.placement = placement
        self.appliesTo = appliesTo
    }

    override public func prepare(_ request: inout URLRequest, endpoint: EndpointType) async throws {
        guard appliesTo(endpoint) else { return }
        switch placement {
        case .header(let name):
            AuthorizationHeader.set(key, named: name, on: &request)
        case .queryParameter(let name):
            guard let url = request.url, var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
            else { return }
            let encodedName = PercentEncoding.encode(name, allowing: PercentEncoding.unreserved)
            let existing = components.percentEncodedQuery ?? ""
            let names = existing.split(separator: "&").map { $0.split(separator: "=", maxSplits: 1).first ?? "" }
            guard !names.contains(where: { $0 == encodedName }) else { return }
            let parameter = encodedName + "=" + PercentEncoding.encode(key, allowing: PercentEncoding.unreserved)
            components.percentEncodedQuery = existing.isEmpty ? parameter : existing + "&" + parameter
            guard let withKey = components.url else {
                throw InvalidRequestError(
                    reason: "the query parameter \(RequestBuilder.quoted(name)) could not be added"
                )
            }
            request.url = withKey
        }
    }
}
