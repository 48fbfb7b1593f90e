#if DEBUG
@testable import Courier
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension FuzzTarget {
    /// `Retry-After` as a server sends it (the input's first line), with the rest as the response's `Date`: the
    /// wait is never negative, whatever the two say.
    static let retryAfter = FuzzTarget(name: "retry-after") { input in
        let lines = FuzzInput.pieces(input, separator: UInt8(ascii: "\n"))
        var headers = ["Retry-After": FuzzInput.text(lines[0])]
        if lines.count > 1 { headers["Date"] = FuzzInput.text(input[(lines[0].count + 1)...]) }
        // A fixed `now`, so that a failure replays the same way.
        let now = Date(timeIntervalSince1970: 1_445_412_480)
        guard
            let url = URL(string: "http://127.0.0.1:8080/"),
            let response = HTTPURLResponse(url: url, statusCode: 503, httpVersion: "HTTP/1.1", headerFields: headers)
        else { return }
        let delay = RetryAfter.delay(in: response, now: now)
        if let delay, delay < .zero {
            preconditionFailure("Retry-After gave a negative wait \(delay) for headers \(headers)")
        }
        let value = (response.value(forHTTPHeaderField: "Retry-After") ?? "").trimmingCharacters(in: .whitespaces)
        if !value.isEmpty, value.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
            delay == nil
        {
            preconditionFailure("Retry-After gave no wait for the delay-seconds \(value.debugDescription)")
        }
    }
}
#endif
