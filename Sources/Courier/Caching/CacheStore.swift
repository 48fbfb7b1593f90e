/// Where a cache's entries are kept: in memory or in a directory, each within a byte limit that drops the least
/// recently used first.
protocol CacheStore: Sendable {
    /// The responses stored for `key`, one per variant; none when there are none or they cannot be read.
    func variants(for key: CacheKey) -> [StoredResponse]
    /// Changes the responses stored for `key` in one step, so that no other change comes between reading and
    /// writing them; none left removes the entry.
    /// - Returns: Whether the entry is kept: `false` when none is left, or it is larger than the store.
    @discardableResult
    func update(_ key: CacheKey, _ change: (inout [StoredResponse]) -> Void) -> Bool
    /// Removes the entries for `url` in every partition.
    func removeAll(url: String)
    /// Removes the entries of `partition`, or every entry when it is `nil`.
    func removeAll(partition: String?)
}

/// What a cache entry is filed under: a partition the app chooses (its signed-in account, say) and the request's
/// URL; one entry holds the URL's variants.
struct CacheKey: Hashable, Sendable {
    let partition: String
    let url: String
}

extension StoredResponse {
    /// About how many bytes the response takes: its body, its fields, and what holds them.
    var byteCount: Int {
        headerFields.reduce(body.count + 256) { $0 + $1.key.utf8.count + $1.value.utf8.count + 32 }
            + varyValues.reduce(0) { $0 + $1.key.utf8.count + $1.value.utf8.count + 32 }
    }
}
