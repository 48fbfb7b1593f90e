import Foundation

/// Entries kept as files in a directory, within a byte limit, so that they outlive the process: one file per URL
/// and partition, written whole to a temporary file and moved into place, so that a crash never leaves half an entry.
///
/// A file that cannot be read (cut short, from another version, not an entry) is removed and counts as a miss; a
/// write that fails leaves the entry out. The least recently used go first, by the files' modification dates after
/// a restart.
final class DirectoryCacheStore: CacheStore {
    private struct State: Sendable {
        var sizes: [String: Int] = [:]
        var recency = RecencyList<String>()
        var byteCount = 0
    }

    let directory: URL
    let byteLimit: Int
    private let state: Locked<State>
    private static let suffix = ".courier-cache"
    /// What a file being written is named with, after its entry's name.
    private static let writing = ".writing-"

    /// Opens `directory`, making it if needed, and takes stock of the entries already there.
    init(directory: URL, byteLimit: Int) throws {
        self.directory = directory
        self.byteLimit = byteLimit
        let files = FileManager.default
        try files.createDirectory(at: directory, withIntermediateDirectories: true)
        let keys: [URLResourceKey] = [.fileSizeKey, .contentModificationDateKey]
        var found: [(name: String, size: Int, modified: Date)] = []
        for url in try files.contentsOfDirectory(at: directory, includingPropertiesForKeys: keys) {
            // A write that a crash cut short is not an entry.
            if url.lastPathComponent.contains(Self.writing) { try? files.removeItem(at: url) }
            guard url.lastPathComponent.hasSuffix(Self.suffix) else { continue }
            let values = try? url.resourceValues(forKeys: Set(keys))
            found.append(
                (url.lastPathComponent, values?.fileSize ?? 0, values?.contentModificationDate ?? .distantPast)
            )
        }
        var state = State()
        for file in found.sorted(by: { $0.modified < $1.modified }) {
            state.sizes[file.name] = file.size
            state.recency.touch(file.name)
            state.byteCount += file.size
        }
        self.state = Locked(state)
        self.state.withLock { evict(&$0) }
    }

    func variants(for key: CacheKey) -> [StoredResponse] {
        state.withLock { read(key, from: &$0) }
    }

    func update(_ key: CacheKey, _ change: (inout [StoredResponse]) -> Void) -> Bool {
        let name = Self.fileName(for: key)
        return state.withLock { state in
            var variants = read(key, from: &state)
            change(&variants)
            let data = variants.isEmpty ? nil : CacheEntryCoding.encode(variants, for: key)
            guard let data, data.count <= byteLimit, write(data, to: name) else {
                remove(name, from: &state)
                return false
            }
            // The new file replaced the old one: only the count changes.
            state.byteCount += data.count - (state.sizes[name] ?? 0)
            state.sizes[name] = data.count
            state.recency.touch(name)
            evict(&state)
            return true
        }
    }

    /// Writes `data` beside the entry `name`, then renames it over the entry: a reader sees the old entry or the
    /// new, never half of one.
    private func write(_ data: Data, to name: String) -> Bool {
        let written = directory.appendingPathComponent(name + Self.writing + UUID().uuidString)
        do {
            try data.write(to: written)
            guard rename(written.path, directory.appendingPathComponent(name).path) == 0 else {
                throw CocoaError(.fileWriteUnknown)
            }
            return true
        } catch {
            try? FileManager.default.removeItem(at: written)
            return false
        }
    }

    /// The variants in `key`'s file; a file that cannot be read is removed.
    private func read(_ key: CacheKey, from state: inout State) -> [StoredResponse] {
        let name = Self.fileName(for: key)
        guard state.sizes[name] != nil else { return [] }
        let file = directory.appendingPathComponent(name)
        guard let data = try? Data(contentsOf: file), let variants = CacheEntryCoding.decode(data, for: key) else {
            // Unreadable, or another key's entry under the same name: dropped, and the request goes on as a miss.
            remove(name, from: &state)
            return []
        }
        state.recency.touch(name)
        try? FileManager.default.setAttributes([.modificationDate: Date()], ofItemAtPath: file.path)
        return variants
    }

    func removeAll(url: String) {
        let ending = "-" + Self.hash(url) + Self.suffix
        state.withLock { state in
            for name in state.sizes.keys where name.hasSuffix(ending) { remove(name, from: &state) }
        }
    }

    func removeAll(partition: String?) {
        let beginning = partition.map { Self.hash($0) + "-" } ?? ""
        state.withLock { state in
            for name in state.sizes.keys where name.hasPrefix(beginning) { remove(name, from: &state) }
        }
    }

    private func evict(_ state: inout State) {
        while state.byteCount > byteLimit, let oldest = state.recency.oldest {
            remove(oldest, from: &state)
        }
    }

    private func remove(_ name: String, from state: inout State) {
        // Only a file the store knows of: removing one that is not there costs an error's making.
        guard let size = state.sizes.removeValue(forKey: name) else { return }
        try? FileManager.default.removeItem(at: directory.appendingPathComponent(name))
        state.byteCount -= size
        state.recency.remove(name)
    }

    /// The partition's hash and the URL's, so that a partition or a URL is found by its file names alone; two keys
    /// with the same name are told apart by the key written in the file.
    static func fileName(for key: CacheKey) -> String {
        hash(key.partition) + "-" + hash(key.url) + suffix
    }

    /// FNV-1a, 64 bits, in hexadecimal: stable across runs and platforms, unlike `Hasher`.
    static func hash(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        let digits = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
