import Foundation

/// `Content-Range: bytes start-end/total`, as a `206` answer gives it.
struct ContentRange {
    let start: Int64
    let total: Int64?

    init?(_ value: String) {
        // Bytes, not Characters: a combining mark after a delimiter would join it into one Character and hide it.
        let trimmed = Substring(value.trimmingCharacters(in: .whitespaces)).utf8
        guard trimmed.count > 6, String(trimmed.prefix(6))?.lowercased() == "bytes " else { return nil }
        let spec = trimmed.dropFirst(6)
        let parts = spec.split(separator: UInt8(ascii: "/"), maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2 else { return nil }
        let bounds = parts[0].split(separator: UInt8(ascii: "-"), maxSplits: 1, omittingEmptySubsequences: false)
        // RFC 9110, section 14.4: first-pos "-" last-pos "/" ( complete-length / "*" ), with first <= last < length.
        guard bounds.count == 2, let start = Self.number(bounds[0]), let end = Self.number(bounds[1]), start <= end
        else { return nil }
        let total: Int64?
        if parts[1].elementsEqual("*".utf8) {
            total = nil
        } else {
            guard let length = Self.number(parts[1]), end < length else { return nil }
            total = length
        }
        self.start = start
        self.total = total
    }

    /// Decimal digits only, without sign or spaces, that fit an `Int64`.
    private static func number(_ digits: Substring.UTF8View.SubSequence) -> Int64? {
        guard !digits.isEmpty, digits.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else {
            return nil
        }
        return String(digits).flatMap { Int64($0) }
    }
}
