/// Entries kept in memory, within a byte limit: the least recently used go first.
final class MemoryCacheStore: CacheStore {
    private struct State: Sendable {
        var entries: [CacheKey: (variants: [StoredResponse], byteCount: Int)] = [:]
        var recency = RecencyList<CacheKey>()
        var byteCount = 0
    }

    private let state = Locked(State())
    let byteLimit: Int

    init(byteLimit: Int) {
        self.byteLimit = byteLimit
    }

    func variants(for key: CacheKey) -> [StoredResponse] {
        state.withLock { state in
            guard let entry = state.entries[key] else { return [] }
            state.recency.touch(key)
            return entry.variants
        }
    }

    func update(_ key: CacheKey, _ change: (inout [StoredResponse]) -> Void) -> Bool {
        state.withLock { state in
            var variants = state.entries[key]?.variants ?? []
            change(&variants)
            remove(key, from: &state)
            let byteCount = variants.reduce(0) { $0 + $1.byteCount }
            // An entry larger than the whole store is not kept: it would only push out everything else.
            guard !variants.isEmpty, byteCount <= byteLimit else { return false }
            state.entries[key] = (variants, byteCount)
            state.recency.touch(key)
            state.byteCount += byteCount
            while state.byteCount > byteLimit, let oldest = state.recency.oldest {
                remove(oldest, from: &state)
            }
            return true
        }
    }

    func removeAll(url: String) {
        state.withLock { state in
            for key in state.entries.keys where key.url == url { remove(key, from: &state) }
        }
    }

    func removeAll(partition: String?) {
        state.withLock { state in
            guard let partition else {
                state = State()
                return
            }
            for key in state.entries.keys where key.partition == partition { remove(key, from: &state) }
        }
    }

    private func remove(_ key: CacheKey, from state: inout State) {
        guard let entry = state.entries.removeValue(forKey: key) else { return }
        state.byteCount -= entry.byteCount
        state.recency.remove(key)
    }
}
