import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Where ``HttpAuthPlugin`` writes its header: only where the endpoint (or an earlier plugin) did not set one.
enum AuthorizationHeader {
    /// Sets `name: value` unless the request already has `name`.
    ///
    /// Through `allHTTPHeaderFields` rather than `setValue`: FoundationNetworking's `setValue` silently drops a value
    /// with CR or LF, which would send the request unauthenticated instead of having the header check refuse it.
    static func set(_ value: String, named name: String = "Authorization", on request: inout URLRequest) {
        guard request.value(forHTTPHeaderField: name) == nil else { return }
        var fields = request.allHTTPHeaderFields ?? [:]
        fields[name] = value
        request.allHTTPHeaderFields = fields
    }
}
