import Foundation

/// A private HTTP cache (RFC 9111) for a provider's requests, over any transport and the mocks alike: give one to
/// the provider, and its `GET`s are served from the cache while fresh, revalidated with `If-None-Match` or
/// `If-Modified-Since` when stale, and stored when the server allows it.
///
/// ```swift
/// let cache = HttpCache(byteLimit: 20 << 20)
/// let provider = ApiProvider<TodoApi>(cache: cache)
/// ```
///
/// - **Fresh** by `max-age`, or `Expires` less `Date`; with `heuristicFreshness`, a fraction of the time since
///   `Last-Modified` where the RFC allows it. Time is the provider's scheduler's, so a ``TestScheduler`` ages entries
///   without waiting.
/// - **Validated** when stale, or always for `no-cache`: a `304` updates the stored header fields, and the stored
///   answer then goes through the plugins and the decoding as any answer does.
/// - **`Vary`**: one entry per variant of a URL. **Unsafe methods** (`POST`, `PUT`, `DELETE`, …) remove what is stored
///   for their URL, their `Location` and their `Content-Location` when they succeed.
/// - **Stale answers** only where allowed: `stale-while-revalidate`, `stale-if-error`, a request's `max-stale`, and,
///   when turned on, when the network fails (``servesStaleWhenOffline``), never for `must-revalidate` or `no-cache`.
/// - **Partitions** (``partition``): answers to authenticated requests are stored, filed under the partition the app
///   gives (its signed-in account, say), so that one account never gets another's.
///
/// Every answer to a request that uses the cache says what the cache did in its `Cache-Status` field
/// (``CacheStatus``). Each endpoint can opt out or share requests in flight with ``Endpoint/caching``. Nothing is
/// cached without a cache on the provider; with one, the URLSession transport's own cache is not used for its
/// requests.
public final class HttpCache: Sendable {
    let store: any CacheStore
    /// The fraction of the time since `Last-Modified` that a response without explicit freshness is fresh for, or
    /// `nil` when such a response is always validated.
    public let heuristicFreshness: Double?
    /// Whether identical `GET`s in flight at once share one exchange, for endpoints that do not say otherwise.
    public let sharesInFlight: Bool
    /// Whether a stale answer is served when the network fails, for endpoints that do not say otherwise.
    public let servesStaleWhenOffline: Bool

    private let currentPartition = Locked("")
    let exchanges = SharedSendings()
    /// The variants being revalidated in the background, each once at a time.
    let revalidations = Locked<Set<Revalidation>>([])
    /// Counts the removals: an answer fetched before one is not stored after it, where it could bring back what
    /// was removed (a signed-out account's, or what an unsafe request changed).
    private let removals = Locked(0)

    struct Revalidation: Hashable {
        let key: CacheKey
        let varyValues: [String: String]
    }

    /// The partition that requests started from now on read and store in: e.g. the signed-in account's ID, set on
    /// sign-in; `""` at first.
    public var partition: String {
        get { currentPartition.withLock { $0 } }
        set { currentPartition.withLock { $0 = newValue } }
    }

    /// Creates a cache kept in memory.
    /// - Parameters:
    ///   - byteLimit: The most bytes of answers kept; the least recently used go first.
    ///   - heuristicFreshness: The fraction of the time since `Last-Modified` (the RFC suggests `0.1`) that an
    ///     answer without explicit freshness stays fresh; `nil` (the default) validates such answers before each use.
    ///   - sharesInFlight: Whether identical `GET`s in flight at once share one exchange.
    ///   - servesStaleWhenOffline: Whether a stale answer is served when the network fails.
    public init(
        byteLimit: Int = 10 << 20,
        heuristicFreshness: Double? = nil,
        sharesInFlight: Bool = false,
        servesStaleWhenOffline: Bool = false
    ) {
        self.store = MemoryCacheStore(byteLimit: byteLimit)
        self.heuristicFreshness = heuristicFreshness
        self.sharesInFlight = sharesInFlight
        self.servesStaleWhenOffline = servesStaleWhenOffline
    }

    /// Creates a cache kept in `directory`, which outlives the process: a new cache on the same directory finds the
    /// entries. Entries are written whole or not at all; one that cannot be read is removed and fetched anew.
    /// - Parameters:
    ///   - directory: Where the entries are kept, made if needed; the cache alone should write there.
    ///   - byteLimit: The most bytes of entries kept; the least recently used go first.
    ///   - heuristicFreshness: The fraction of the time since `Last-Modified` that an answer without explicit
    ///     freshness stays fresh; `nil` validates such answers before each use.
    ///   - sharesInFlight: Whether identical `GET`s in flight at once share one exchange.
    ///   - servesStaleWhenOffline: Whether a stale answer is served when the network fails.
    /// - Throws: The file system's error when the directory cannot be made or read.
    public init(
        directory: URL,
        byteLimit: Int = 50 << 20,
        heuristicFreshness: Double? = nil,
        sharesInFlight: Bool = false,
        servesStaleWhenOffline: Bool = false
    ) throws {
        self.store = try DirectoryCacheStore(directory: directory, byteLimit: byteLimit)
        self.heuristicFreshness = heuristicFreshness
        self.sharesInFlight = sharesInFlight
        self.servesStaleWhenOffline = servesStaleWhenOffline
    }

    /// Removes every entry of `partition`: on sign-out, say. Answers to requests already on their way are not stored.
    public func removeAll(inPartition partition: String) {
        remove { $0.removeAll(partition: partition) }
    }

    /// Removes every entry. Answers to requests already on their way are not stored.
    public func removeAll() {
        remove { $0.removeAll(partition: nil) }
    }

    /// Removes the entries for `url` in every partition, as an unsafe request asks.
    func removeAll(url: String) {
        remove { $0.removeAll(url: url) }
    }

    /// The removals so far: what a request notes when it starts, to store its answer only if none came since.
    var removalCount: Int { removals.withLock { $0 } }

    /// Stores what `change` makes of `key`'s variants, unless a removal came after `removalCount`.
    /// - Returns: Whether the entry is kept.
    @discardableResult
    func update(_ key: CacheKey, since removalCount: Int, _ change: (inout [StoredResponse]) -> Void) -> Bool {
        var changed = false
        let kept = store.update(key) { variants in
            // Counted before each removal, and read here under the store's lock: a removal either came first, and
            // this answer is not stored, or comes after, and removes it.
            guard removals.withLock({ $0 }) == removalCount else { return }
            change(&variants)
            changed = true
        }
        return changed && kept
    }

    private func remove(_ removal: (any CacheStore) -> Void) {
        removals.withLock { $0 += 1 }
        removal(store)
    }
}
