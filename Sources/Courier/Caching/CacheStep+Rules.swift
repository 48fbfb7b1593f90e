import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The cache step's decisions, each one rule of RFC 9111 or RFC 5861.
extension CacheStep {
    /// Methods that change nothing on the server (RFC 9110, section 9.2.1): anything else invalidates.
    static var safeMethods: Set<String> { ["GET", "HEAD", "OPTIONS", "TRACE"] }

    /// Statuses after which `stale-if-error` may serve a stored answer (RFC 5861, section 4).
    static var serverErrors: Set<Int> { [500, 502, 503, 504] }

    /// Whether the request carries conditions or a range of its own, which a stored answer cannot answer for it.
    static func asksItsOwnQuestion(_ fields: [String: String]) -> Bool {
        fields.keys.contains { name in
            ["If-None-Match", "If-Modified-Since", "If-Match", "If-Unmodified-Since", "If-Range", "Range"].contains {
                HeaderFields.sameName(name, $0)
            }
        }
    }

    /// The request as it goes to the network: only Courier's cache answers a provider that has one, since
    /// URLSession's own knows no partition.
    static func uncached(_ request: URLRequest) -> URLRequest {
        guard request.cachePolicy != .reloadIgnoringLocalCacheData else { return request }
        var request = request
        request.cachePolicy = .reloadIgnoringLocalCacheData
        return request
    }

    static func withoutFragment(_ url: URL) -> String {
        let text = url.absoluteString
        return text.firstIndex(of: "#").map { String(text[..<$0]) } ?? text
    }

    /// The newest stored variant whose `Vary` fields match the request (section 4.1).
    static func select(_ variants: [StoredResponse], for fields: [String: String]) -> StoredResponse? {
        var newest: StoredResponse?
        for variant in variants where variant.matches(fields) {
            if newest.map({ variant.responseTime > $0.responseTime }) ?? true { newest = variant }
        }
        return newest
    }

    /// How `stored` may answer without the network at `now`, or `nil` when it must be validated first (sections
    /// 4.2, 4.2.4 and 5.2; RFC 5861, section 3).
    static func servable(_ stored: StoredResponse, at now: Date, rules: Rules) -> CacheStatus? {
        let response = stored.cacheControl
        guard !response.noCache, !rules.control.noCache else { return nil }
        let age = stored.age(at: now)
        if let maxAge = rules.control.maxAge, age > Double(maxAge) { return nil }
        let remaining = stored.freshnessLifetime - age
        if remaining > 0 {
            return remaining >= Double(rules.control.minFresh ?? 0) ? .hit : nil
        }
        guard !response.mustRevalidate else { return nil }
        let staleness = -remaining
        if let maxStale = rules.control.maxStale, staleness <= Double(maxStale) { return .stale(.acceptedByRequest) }
        if let window = response.staleWhileRevalidate, staleness <= Double(window) { return .stale(.whileRevalidating) }
        return nil
    }

    /// Whether `stale-if-error`, the response's or the request's, allows `stored` after a failure (RFC 5861,
    /// section 4), where a stale answer may be served at all.
    static func allowsStaleIfError(_ stored: StoredResponse, at now: Date, _ rules: Rules) -> Bool {
        let window = max(stored.cacheControl.staleIfError ?? -1, rules.control.staleIfError ?? -1)
        return window >= 0 && stored.age(at: now) - stored.freshnessLifetime <= Double(window) && mayServeStale(stored)
    }

    /// Whether a stale answer may be served at all, after an error or when disconnected: not for `no-cache` or
    /// `must-revalidate` (section 4.2.4).
    static func mayServeStale(_ stored: StoredResponse) -> Bool {
        let response = stored.cacheControl
        return !response.noCache && !response.mustRevalidate
    }

    /// Failures that mean the server could not be reached, after which the offline fallback serves.
    static func isOffline(_ error: any Error) -> Bool {
        guard let error = error as? URLError else { return false }
        let offline: Set<URLError.Code> = [
            .notConnectedToInternet, .cannotConnectToHost, .cannotFindHost, .dnsLookupFailed, .networkConnectionLost,
            .timedOut, .internationalRoamingOff, .dataNotAllowed,
        ]
        return offline.contains(error.code)
    }

    static func isCancellation(_ error: any Error) -> Bool {
        error is CancellationError || (error as? URLError)?.code == .cancelled
    }

    /// The answer to an `only-if-cached` request that nothing stored answers (section 5.2.1.7).
    static func gatewayTimeout(for request: URLRequest) -> TransportResponse {
        answer(
            for: request,
            statusCode: 504,
            httpVersion: "HTTP/1.1",
            fields: ["Cache-Status": CacheStatus.miss.member() + "; detail=only-if-cached"],
            body: Data(),
            status: .miss
        )
    }

    /// An answer the cache makes, telling what it did.
    static func answer(
        for request: URLRequest,
        statusCode: Int,
        httpVersion: String,
        fields: some HeaderFieldSource,
        body: Data,
        status: CacheStatus
    ) -> TransportResponse {
        let url = request.url ?? URL(fileURLWithPath: "/")
        var head = ResponseHead(url: url, statusCode: statusCode, httpVersion: httpVersion, headerFields: fields)
        head.cacheStatus = status
        return TransportResponse(head: head, body: body)
    }

    /// The network's answer with the cache's `Cache-Status` member added.
    static func adding(_ status: CacheStatus, stored: Bool, to answer: TransportResponse) -> TransportResponse {
        var fields = answer.head.headerFields
        CacheStatus.append(status.member(stored: stored), to: &fields)
        var head = answer.head.replacingFields(with: fields)
        head.cacheStatus = status
        return TransportResponse(head: head, body: answer.body, hasBody: answer.hasBody)
    }

}

extension CacheStep.Rules {
    init(
        key: CacheKey,
        fields: [String: String],
        usesStorage: Bool,
        servesStaleWhenOffline: Bool,
        cachePolicy: URLRequest.CachePolicy,
        removalCount: Int
    ) {
        self.key = key
        self.fields = fields
        self.usesStorage = usesStorage
        self.servesStaleWhenOffline = servesStaleWhenOffline
        self.removalCount = removalCount
        let cacheControl = HeaderFields.field("Cache-Control", in: fields)
        control = CacheControl(cacheControl)
        if cacheControl == nil, HeaderFields.field("Pragma", in: fields)?.lowercased().contains("no-cache") == true {
            control.noCache = true
        }
        switch cachePolicy {
        case .reloadIgnoringLocalCacheData, .reloadIgnoringLocalAndRemoteCacheData: ignoresStored = true
        case .reloadRevalidatingCacheData: control.noCache = true
        case .returnCacheDataElseLoad: control.maxStale = Int.max
        case .returnCacheDataDontLoad:
            control.maxStale = Int.max
            control.onlyIfCached = true
        default: break
        }
    }
}
