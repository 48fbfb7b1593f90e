/// How an endpoint's requests use the provider's ``HttpCache``: its ``Endpoint/caching``.
///
/// ``standard`` (the default) follows RFC 9111 for every `GET`; ``bypass`` neither reads nor stores, for answers that
/// must always be fetched. Either can share identical requests in flight, or serve a stale answer when the network
/// fails, where the cache does not already do so for all its endpoints:
/// ```swift
/// var caching: Caching {
///     switch self {
///     case .profile: .standard.sharingInFlight().servingStaleWhenOffline()
///     case .balance: .bypass
///     default: .standard
///     }
/// }
/// ```
/// Without a cache on the provider, this changes nothing.
public struct Caching: Sendable, Hashable {
    /// Whether answers are served from the cache and stored in it.
    public var usesStorage: Bool
    /// Whether identical `GET`s in flight at once share one exchange; `nil` for the cache's own setting
    /// (``HttpCache/sharesInFlight``).
    public var sharesInFlight: Bool?
    /// Whether a stale answer is served when the network fails; `nil` for the cache's own setting
    /// (``HttpCache/servesStaleWhenOffline``).
    public var servesStaleWhenOffline: Bool?

    /// Creates a policy.
    public init(usesStorage: Bool, sharesInFlight: Bool? = nil, servesStaleWhenOffline: Bool? = nil) {
        self.usesStorage = usesStorage
        self.sharesInFlight = sharesInFlight
        self.servesStaleWhenOffline = servesStaleWhenOffline
    }

    /// Served and stored by RFC 9111's rules, with the cache's settings.
    public static let standard = Caching(usesStorage: true)

    /// Never served from the cache nor stored in it (a request with an unsafe method still removes what the cache
    /// holds for its URL).
    public static let bypass = Caching(usesStorage: false)

    /// This policy, with identical requests in flight at once sharing one exchange, or not.
    public func sharingInFlight(_ shares: Bool = true) -> Caching {
        var caching = self
        caching.sharesInFlight = shares
        return caching
    }

    /// This policy, with a stale answer served when the network fails, or not.
    public func servingStaleWhenOffline(_ serves: Bool = true) -> Caching {
        var caching = self
        caching.servesStaleWhenOffline = serves
        return caching
    }
}
