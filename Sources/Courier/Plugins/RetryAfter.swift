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
        guard let date = HttpDate.parse(value) else { return nil }
        let reference = response.value(forHTTPHeaderField: "Date").flatMap(HttpDate.parse) ?? now
        return .milliseconds(Int64(max(date.timeIntervalSince(reference), 0) * 1000))
    }
}
