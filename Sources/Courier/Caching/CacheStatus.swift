import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What a provider's ``HttpCache`` did for an answer, as its `Cache-Status` header field tells (RFC 9211): every
/// answer to a request that uses the cache's storage carries one, named `Courier` (a request that goes past it, or an
/// endpoint that only shares requests in flight, carries none).
///
/// Read it from ``ApiResponse/cacheStatus`` or from the response a plugin sees, with ``init(of:)``.
public enum CacheStatus: Sendable, Hashable {
    /// Served from the cache, fresh; the network was not asked.
    case hit
    /// Served from the cache after the server confirmed it with `304 Not Modified`.
    case revalidated
    /// Fetched from the network (and stored, if it may be).
    case miss
    /// Served from the cache although stale, for `reason`.
    case stale(StaleReason)

    /// Why a stale answer was served.
    public enum StaleReason: String, Sendable, Hashable {
        /// The server allows it for a while (`stale-while-revalidate`); the cache revalidates it meanwhile.
        case whileRevalidating = "stale-while-revalidate"
        /// The server could not be reached or answered with an error, and `stale-if-error` allows it.
        case afterError = "stale-if-error"
        /// The server could not be reached, and the cache or the endpoint serves stale answers when offline.
        case offline
        /// The request accepts it (`max-stale`, or `URLRequest.CachePolicy.returnCacheDataElseLoad`).
        case acceptedByRequest = "max-stale"
    }

    /// The status as observability names it (`courier.cache.status`): `hit`, `revalidated`, `miss` or `stale`.
    public var name: String {
        switch self {
        case .hit: "hit"
        case .revalidated: "revalidated"
        case .miss: "miss"
        case .stale: "stale"
        }
    }

    /// Whether the network was asked for this answer: not for a fresh hit, nor for a stale answer served at once.
    var askedTheNetwork: Bool {
        switch self {
        case .hit, .stale(.whileRevalidating), .stale(.acceptedByRequest): false
        case .revalidated, .miss, .stale(.afterError), .stale(.offline): true
        }
    }

    /// The name of Courier's member in `Cache-Status`.
    static let cacheName = "Courier"

    /// The status Courier's cache gave `response`, or `nil` when the request did not use one.
    public init?(of response: HTTPURLResponse) {
        guard let field = response.value(forHTTPHeaderField: "Cache-Status") else { return nil }
        self.init(field: field)
    }

    /// The status in Courier's member of a `Cache-Status` field (the last one: each cache adds its own at the end).
    init?(field: String) {
        guard
            let member = field.split(separator: ",").last(where: {
                $0.split(separator: ";").first?.trimmingSpaces() == Self.cacheName[...]
            })
        else { return nil }
        let parameters = member.split(separator: ";").dropFirst().map { $0.trimmingSpaces() }
        let value = { (name: String) in
            parameters.first { $0.hasPrefix(name + "=") }.map { String($0.dropFirst(name.count + 1)) }
        }
        if let reason = value("detail").flatMap(StaleReason.init(rawValue:)) {
            self = .stale(reason)
        } else if parameters.contains("hit") {
            self = .hit
        } else if value("fwd") == "stale", value("fwd-status") == "304" {
            self = .revalidated
        } else {
            self = .miss
        }
    }

    /// Adds Courier's member at the end of `Cache-Status`, after those of caches nearer the server (RFC 9211).
    static func append(_ member: String, to fields: inout [String: String]) {
        if let name = fields.keys.first(where: { HeaderFields.sameName($0, "Cache-Status") }), let value = fields[name]
        {
            fields[name] = value + ", " + member
        } else {
            fields["Cache-Status"] = member
        }
    }

    /// This status as Courier's `Cache-Status` member.
    func member(stored: Bool = false) -> String {
        switch self {
        case .hit: "\(Self.cacheName); hit"
        case .revalidated: "\(Self.cacheName); fwd=stale; fwd-status=304"
        case .miss: "\(Self.cacheName); fwd=miss" + (stored ? "; stored" : "")
        case .stale(let reason) where askedTheNetwork: "\(Self.cacheName); fwd=stale; detail=\(reason.rawValue)"
        case .stale(let reason): "\(Self.cacheName); hit; detail=\(reason.rawValue)"
        }
    }
}

extension ApiResponse {
    /// What the provider's ``HttpCache`` did for this answer, or `nil` when it did not go through one.
    public var cacheStatus: CacheStatus? { httpUrlResponse.flatMap(CacheStatus.init(of:)) }
}
