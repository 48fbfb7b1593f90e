import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Reads the wait a response asks for in its `Retry-After` header (RFC 9110, section 10.2.3).
enum RetryAfter {
    /// The wait: whole seconds as given, or the time from the response's `Date` (the server's own clock, so a
    /// client clock that is off does not matter) to the HTTP-date given; `now` stands in for a missing `Date`.
    /// A date in the past means no wait. `nil` when there is no header or it is neither form.
    static func delay(in response: HTTPURLResponse, now: Date) -> Duration? {
        guard let value = response.value(forHTTPHeaderField: "Retry-After")?.trimmingCharacters(in: .whitespaces),
            !value.isEmpty
        else { return nil }
        if value.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) {
            return .seconds(Int(value) ?? Int.max / 1_000_000_000)
        }
        guard let date = httpDate(value) else { return nil }
        let reference = response.value(forHTTPHeaderField: "Date").flatMap(httpDate) ?? now
        return .milliseconds(Int64(max(date.timeIntervalSince(reference), 0) * 1000))
    }

    /// IMF-fixdate, and the two obsolete forms recipients must accept: RFC 850 and asctime.
    static func httpDate(_ text: String) -> Date? {
        // An HTTP-date is printable ASCII; other text is refused before it reaches DateFormatter, which on Linux traps
        // on some (a letter followed by a combining mark).
        guard text.utf8.allSatisfy({ (0x20...0x7e).contains($0) }) else { return nil }
        for format in ["EEE, dd MMM yyyy HH:mm:ss zzz", "EEEE, dd-MMM-yy HH:mm:ss zzz", "EEE MMM d HH:mm:ss yyyy"] {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "GMT")
            formatter.dateFormat = format
            if let date = formatter.date(from: text) { return date }
        }
        return nil
    }
}
