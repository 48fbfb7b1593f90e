import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What OpenTelemetry's HTTP client conventions say of a request, from its method and URL alone: the same values
/// for metrics' dimensions and spans' attributes.
struct HttpClientAttributes: Sendable {
    /// `http.request.method`: a method HTTP defines, or `_OTHER`.
    let method: String
    /// `http.request.method_original`, only when ``method`` is `_OTHER`.
    let originalMethod: String?
    /// `server.address`: the URL's host.
    let serverAddress: String?
    /// `server.port`: the URL's port, or the scheme's default.
    let serverPort: Int?

    private static let knownMethods: Set<String> = [
        "GET", "HEAD", "POST", "PUT", "DELETE", "CONNECT", "OPTIONS", "TRACE", "PATCH", "QUERY",
    ]

    /// Nothing known: for an observation that no observer asks about.
    init() {
        (method, originalMethod, serverAddress, serverPort) = ("_OTHER", nil, nil, nil)
    }

    init(_ request: URLRequest) {
        let method = request.httpMethod ?? "GET"
        if Self.knownMethods.contains(method) {
            (self.method, self.originalMethod) = (method, nil)
        } else {
            (self.method, self.originalMethod) = ("_OTHER", method)
        }
        let url = request.url
        self.serverAddress = url?.host
        switch (url?.port, url?.scheme?.lowercased()) {
        case (let port?, _): self.serverPort = port
        case (nil, "https"), (nil, "wss"): self.serverPort = 443
        case (nil, "http"), (nil, "ws"): self.serverPort = 80
        default: self.serverPort = nil
        }
    }
}
