import Foundation

/// HTTP's date format (RFC 9110, section 5.6.7), read by `Retry-After` and by the cache's `Date`, `Expires` and
/// `Last-Modified`.
enum HttpDate {
    /// IMF-fixdate, and the two obsolete forms recipients must accept: RFC 850 and asctime; `nil` for anything else.
    static func parse(_ text: String) -> Date? {
        // An HTTP-date is printable ASCII; other text is refused before it reaches DateFormatter, which on Linux traps
        // on some (a letter followed by a combining mark).
        guard text.utf8.allSatisfy({ (0x20...0x7e).contains($0) }) else { return nil }
        return formatters.withLock { formatters in formatters.lazy.compactMap { $0.date(from: text) }.first }
    }

    /// Made once: making a formatter costs far more than parsing with it. Used under the lock, one parse at a time.
    private static let formatters = Locked(
        ["EEE, dd MMM yyyy HH:mm:ss zzz", "EEEE, dd-MMM-yy HH:mm:ss zzz", "EEE MMM d HH:mm:ss yyyy"].map { format in
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "GMT")
            formatter.dateFormat = format
            return formatter
        }
    )
}
