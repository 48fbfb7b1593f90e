import Foundation

/// A URL's origin as credentials are scoped to it: scheme, host and port (the scheme's default when none is
/// given), compared without case. A redirect that changes it carries no credentials, on every transport.
enum Origin {
    static func of(_ url: URL?) -> String? {
        guard let url, let components = URLComponents(url: url, resolvingAgainstBaseURL: true) else { return nil }
        let scheme = components.scheme?.lowercased() ?? ""
        let port = components.port ?? (scheme == "https" ? 443 : 80)
        return "\(scheme)://\(components.host?.lowercased() ?? ""):\(port)"
    }
}
