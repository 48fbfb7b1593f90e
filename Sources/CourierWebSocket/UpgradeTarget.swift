#if WebSocket
import Courier
import Foundation
import NIOHTTP1

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Where an upgrade request goes and what it says, read from the request the pipeline built: `http` and `ws` URLs in
/// the clear, `https` and `wss` over TLS.
struct UpgradeTarget: Sendable {
    let url: URL
    let host: String
    let port: Int
    let secure: Bool
    /// Whether `host` is an IP address, which is no name to ask TLS for.
    let isAddress: Bool
    /// The request's head: its target, and its headers with `Host`; NIO's upgrader adds WebSocket's own.
    let head: HTTPRequestHead

    init(_ request: URLRequest) throws(InvalidRequestError) {
        guard let url = request.url, let components = URLComponents(url: url, resolvingAgainstBaseURL: false),
            let scheme = components.scheme?.lowercased(), let host = components.host, !host.isEmpty
        else {
            throw InvalidRequestError(
                reason: "a WebSocket needs a URL with a host, not \(request.url?.absoluteString ?? "none")"
            )
        }
        switch scheme {
        case "ws", "http": secure = false
        case "wss", "https": secure = true
        default:
            throw InvalidRequestError(
                reason: "a WebSocket's URL must be ws, wss, http or https, not \"\(scheme)\" (\(url.absoluteString))"
            )
        }
        guard request.httpBody == nil, request.httpBodyStream == nil else {
            throw InvalidRequestError(reason: "a WebSocket's upgrade request cannot carry a body")
        }
        let defaultPort = secure ? 443 : 80
        self.url = url
        self.host = host.hasPrefix("[") ? String(host.dropFirst().dropLast()) : host
        port = components.port ?? defaultPort
        isAddress = self.host.contains(":") || self.host.allSatisfy { $0.isNumber || $0 == "." }
        var headers = HTTPHeaders()
        headers.add(name: "Host", value: components.port.map { "\(host):\($0)" } ?? host)
        for (name, value) in request.allHTTPHeaderFields ?? [:] where name.lowercased() != "host" {
            headers.add(name: name, value: value)
        }
        let path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        let target = components.percentEncodedQuery.map { "\(path)?\($0)" } ?? path
        head = HTTPRequestHead(version: .http1_1, method: .GET, uri: target, headers: headers)
    }
}
#endif
