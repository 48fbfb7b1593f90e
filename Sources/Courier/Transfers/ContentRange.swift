import Foundation

/// `Content-Range: bytes start-end/total`, as a `206` answer gives it.
struct ContentRange {
    let start: Int64
    let total: Int64?

    init?(_ value: String) {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        guard trimmed.lowercased().hasPrefix("bytes ") else { return nil }
        let spec = trimmed.dropFirst("bytes ".count)
        let parts = spec.split(separator: "/", maxSplits: 1)
        guard parts.count == 2, let dash = parts[0].firstIndex(of: "-"),
            let start = Int64(parts[0][..<dash].trimmingCharacters(in: .whitespaces)), start >= 0
        else { return nil }
        self.start = start
        total = parts[1] == "*" ? nil : Int64(parts[1])
    }
}
