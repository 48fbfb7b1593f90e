import Foundation

/// A response made up for tests: a status, headers and a body, returned by a mocked provider instead of a
/// call to the server.
public struct MockedResponse: Sendable, Hashable {
    /// The HTTP status of the made-up response.
    public var status: HttpStatus
    /// The response headers.
    public var headers: [String: String]
    /// The response body, or `nil` for none.
    public var bodyData: Data?

    /// Creates a mocked response from its parts.
    public init(status: HttpStatus, headers: [String: String] = [:], bodyData: Data? = nil) {
        self.status = status
        self.headers = headers
        self.bodyData = bodyData
    }
}
