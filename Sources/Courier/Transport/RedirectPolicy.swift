import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// How every transport that follows redirects follows them: how many, and which of the request's fields stay with
/// the origin they were sent to.
package enum RedirectPolicy {
    /// The most redirects followed, as URLSession allows; one more fails with `URLError(.httpTooManyRedirects)`.
    package static let limit = 16

    /// Where a transport sends `Proxy-Authorization`.
    package enum ProxyCredentials {
        /// To the server, like any field (URLSession): a credential to drop with the others.
        case toServer
        /// To a proxy alone (libcurl's `CURLOPT_PROXYHEADER`): a redirect does not change the proxy, so it stays.
        case toProxyAlone
    }

    /// The fields to remove from the request that follows a redirect from `origin` to `target`: the credentials,
    /// when the target is of another origin.
    package static func fieldsToDrop(from origin: URL?, to target: URL?, proxyCredentials: ProxyCredentials)
        -> [String]
    {
        guard self.origin(of: origin) != self.origin(of: target) else { return [] }
        switch proxyCredentials {
        case .toServer: return ["Authorization", "Cookie", "Proxy-Authorization"]
        case .toProxyAlone: return ["Authorization", "Cookie"]
        }
    }

    /// A URL's origin as credentials are scoped to it: scheme, host and port (the scheme's default when none is
    /// given), compared without case.
    package static func origin(of url: URL?) -> String? {
        guard let url, let components = URLComponents(url: url, resolvingAgainstBaseURL: true) else { return nil }
        let scheme = components.scheme?.lowercased() ?? ""
        let port = components.port ?? (scheme == "https" ? 443 : 80)
        return "\(scheme)://\(components.host?.lowercased() ?? ""):\(port)"
    }
}
