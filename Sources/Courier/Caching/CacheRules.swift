import Foundation

/// What RFC 9111 lets a private cache store, and for how long a stored response is fresh.
enum CacheRules {
    /// Status codes a response may be stored for without explicit freshness (RFC 9110, section 15.1), less `206`,
    /// which this cache does not combine.
    static let heuristicallyCacheable: Set<Int> = [200, 203, 204, 300, 301, 308, 404, 405, 410, 414, 501]

    /// Whether a response to a `GET` may be stored (section 3): a final status other than `206` and `304`, no
    /// `no-store` on either side, no `Vary: *`, and something that makes it reusable: explicit freshness, `public`,
    /// `private`, or a status that is cacheable by default.
    static func mayStore(statusCode: Int, fields: [String: String], request: CacheControl) -> Bool {
        guard statusCode >= 200, statusCode != 206, statusCode != 304, !request.noStore else { return false }
        let response = CacheControl(HeaderFields.field("Cache-Control", in: fields))
        guard !response.noStore else { return false }
        if StoredResponse.varyNames(HeaderFields.field("Vary", in: fields)).contains("*") { return false }
        return response.maxAge != nil || response.isPublic || response.isPrivate
            || HeaderFields.field("Expires", in: fields) != nil || heuristicallyCacheable.contains(statusCode)
    }

    /// How long a response is fresh (section 4.2.1): `max-age`, else `Expires` less `Date` (an `Expires` that is not
    /// a date means already stale; without `Date`, the time it arrived on the device's clock), else, when
    /// `heuristicFraction` is given and the response allows it, that fraction of the time since `Last-Modified`
    /// (section 4.2.2), else none: it must be validated before each use.
    static func freshnessLifetime(
        statusCode: Int,
        fields: [String: String],
        receivedAt: Date,
        heuristicFraction: Double?
    ) -> Double {
        let control = CacheControl(HeaderFields.field("Cache-Control", in: fields))
        if let maxAge = control.maxAge { return Double(maxAge) }
        // Dates are parsed only when they count: a parse costs more than the rest of storing an answer.
        let date = { HeaderFields.field("Date", in: fields).flatMap { HttpDate.parse(String($0.trimmingSpaces())) } }
        if let expires = HeaderFields.field("Expires", in: fields) {
            guard let expiry = HttpDate.parse(String(expires.trimmingSpaces())) else { return 0 }
            return max(expiry.timeIntervalSince(date() ?? receivedAt), 0)
        }
        guard let heuristicFraction, heuristicallyCacheable.contains(statusCode) || control.isPublic,
            let lastModified = HeaderFields.field("Last-Modified", in: fields).flatMap({
                HttpDate.parse(String($0.trimmingSpaces()))
            })
        else { return 0 }
        return max((date() ?? receivedAt).timeIntervalSince(lastModified), 0) * heuristicFraction
    }
}
