import Foundation

/// One request exactly as the test server received it; `/echo` answers with it as JSON.
public struct ReceivedRequest: Codable, Sendable, Equatable {
    /// The method token, e.g. `"POST"`.
    public let method: String
    /// The path as sent on the request line, still percent-encoded, without the query.
    public let path: String
    /// The query as sent on the request line (after `?`), still percent-encoded; `nil` when there was no `?`.
    public let query: String?
    /// The header fields in the order received, as `[name, value]` pairs.
    public let headers: [[String]]
    /// The body bytes.
    public let body: Data

    /// The first value of the header `name`, compared case-insensitively.
    public func header(_ name: String) -> String? {
        headerValues(name).first
    }

    /// All values of the header `name`, compared case-insensitively, in the order received.
    public func headerValues(_ name: String) -> [String] {
        headers.filter { $0.first?.lowercased() == name.lowercased() }.compactMap { $0.last }
    }

    /// The body as UTF-8 text.
    public var bodyText: String { String(decoding: body, as: UTF8.self) }
}
