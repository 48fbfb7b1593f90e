/// Keys from the least recently used to the most, each move and removal in constant time: what a store evicts
/// first when it is over its byte limit.
struct RecencyList<Key: Hashable> {
    private var links: [Key: (older: Key?, newer: Key?)] = [:]
    /// The key used least recently, which goes first.
    private(set) var oldest: Key?
    private var newest: Key?

    /// Makes `key` the most recently used, adding it if it is new.
    mutating func touch(_ key: Key) {
        if newest == key { return }
        remove(key)
        links[key] = (older: newest, newer: nil)
        if let newest { links[newest]?.newer = key }
        newest = key
        if oldest == nil { oldest = key }
    }

    mutating func remove(_ key: Key) {
        guard let link = links.removeValue(forKey: key) else { return }
        if let older = link.older { links[older]?.newer = link.newer } else { oldest = link.newer }
        if let newer = link.newer { links[newer]?.older = link.older } else { newest = link.older }
    }

    mutating func removeAll() {
        links = [:]
        oldest = nil
        newest = nil
    }
}

extension RecencyList: Sendable where Key: Sendable {}
