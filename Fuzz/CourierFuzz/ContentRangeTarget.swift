#if DEBUG
@testable import Courier
import Foundation

extension FuzzTarget {
    /// `Content-Range` of a `206`: a range Courier accepts starts at or after 0, has a total of at least 0, and, when
    /// the header names its last byte, `start <= end < total` (RFC 9110, section 14.4 calls anything else invalid).
    static let contentRange = FuzzTarget(name: "content-range") { input in
        let value = FuzzInput.text(input)
        guard let range = ContentRange(value) else { return }
        let failure = { (what: String) in
            preconditionFailure(
                "ContentRange accepted \(value.debugDescription) (hex \(FuzzInput.hex(input))) with \(what): "
                    + "start \(range.start), total \(range.total.map(String.init) ?? "*")"
            )
        }
        if range.start < 0 { failure("a negative start") }
        if let total = range.total, total < 0 { failure("a negative total") }
        guard let end = lastBytePosition(in: value) else { return }
        if end < range.start { failure("its last byte \(end) before its first") }
        if let total = range.total, end >= total { failure("its last byte \(end) not below the total") }
    }

    /// The `end` of `bytes start-end/total`, when it is a number: the part `ContentRange` itself does not keep.
    private static func lastBytePosition(in value: String) -> Int64? {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        // Split as `ContentRange` splits, so that both read the same `start-end`.
        let parts = trimmed.dropFirst("bytes ".count).split(separator: "/", maxSplits: 1)
        guard let range = parts.first, let dash = range.firstIndex(of: "-") else { return nil }
        return Int64(range[range.index(after: dash)...].trimmingCharacters(in: .whitespaces))
    }
}
#endif
