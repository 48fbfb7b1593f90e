import Foundation

/// One response a cache keeps: what came back, which request fields it varies on, and when it arrived on the
/// cache's clock.
struct StoredResponse: Sendable, Equatable {
    var statusCode: Int
    var httpVersion: String
    /// The header fields as received (a repeated field's values joined with commas), without those a cache must
    /// not store (RFC 9111, section 3.1).
    var headerFields: [String: String] { didSet { readFields() } }
    var body: Data
    /// The lowercased names in the response's `Vary`, and the values the request that got it had for them (absent
    /// fields are missing).
    var varyNames: [String]
    var varyValues: [String: String]
    /// When the request went out and when the answer came, on the cache's clock (RFC 9111, section 4.2.3).
    var requestTime: Date
    var responseTime: Date
    /// How long the response is fresh from its origin: computed once, when it was stored or last validated.
    var freshnessLifetime: Double
    /// The response's directives and the `Age` it came with, read from its fields once, not at each use.
    private(set) var cacheControl = CacheControl()
    private(set) var ageValue = 0

    init(
        statusCode: Int,
        httpVersion: String,
        headerFields: [String: String],
        body: Data,
        varyNames: [String],
        varyValues: [String: String],
        requestTime: Date,
        responseTime: Date,
        freshnessLifetime: Double
    ) {
        self.statusCode = statusCode
        self.httpVersion = httpVersion
        self.headerFields = headerFields
        self.body = body
        self.varyNames = varyNames
        self.varyValues = varyValues
        self.requestTime = requestTime
        self.responseTime = responseTime
        self.freshnessLifetime = freshnessLifetime
        readFields()
    }

    private mutating func readFields() {
        cacheControl = CacheControl(HeaderFields.field("Cache-Control", in: headerFields))
        ageValue =
            HeaderFields.field("Age", in: headerFields).flatMap { CacheControl.seconds($0.trimmingSpaces()) } ?? 0
    }

    /// The response's age at `now` (section 4.2.3), counted on the cache's clock alone: the `Age` it came with, the
    /// time its exchange took and the time it has been kept. The server's `Date` is not compared with the cache's
    /// clock (the apparent age), which may be virtual or set wrong.
    func age(at now: Date) -> Double {
        let responseDelay = max(responseTime.timeIntervalSince(requestTime), 0)
        let residentTime = max(now.timeIntervalSince(responseTime), 0)
        return Double(ageValue) + responseDelay + residentTime
    }

    /// The request fields a later request must match for this response to answer it (section 4.1); never for
    /// `Vary: *`.
    func matches(_ requestFields: [String: String]) -> Bool {
        for name in varyNames {
            if name == "*" { return false }
            if Self.normalized(HeaderFields.field(name, in: requestFields)) != varyValues[name] { return false }
        }
        return true
    }

    /// A field's value as a variant compares it: spaces around it and around its commas removed.
    static func normalized(_ value: String?) -> String? {
        value.map { value in value.split(separator: ",").map { String($0.trimmingSpaces()) }.joined(separator: ",") }
    }

    /// The lowercased field names of a `Vary` value.
    static func varyNames(_ value: String?) -> [String] {
        guard let value else { return [] }
        return value.split(separator: ",").map { $0.trimmingSpaces().lowercased() }.filter { !$0.isEmpty }
    }

    /// Fields a cache does not store (section 3.1), nor take from a `304` (section 3.2).
    static let unstoredFields: Set<String> = [
        "connection", "keep-alive", "proxy-authenticate", "proxy-authentication-info", "proxy-authorization",
        "proxy-connection", "te", "trailer", "transfer-encoding", "upgrade",
    ]
}
