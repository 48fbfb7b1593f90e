import Foundation
import Testing

@testable import Courier

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// An endpoint that brings its path and query percent-encoded (a generated OpenAPI client's request): joined to the
/// base URL as they are, after the same checks as a subpath.
@Suite struct PercentEncodedTargetTests {
    struct Target: Endpoint, PercentEncodedTarget {
        typealias ClientErrorType = EmptyBodyResponse
        var baseUrl: URL
        var percentEncodedTarget: String
        var subpath: String { "ignored" }
        var method: HttpMethod { .get }
    }

    /// The URL built, or `refused: ` and why.
    static func url(_ base: String, _ target: String) -> String {
        switch RequestBuilder.request(
            for: Target(baseUrl: URL(string: base)!, percentEncodedTarget: target),
            baseUrl: nil
        )
        {
        case .success(let built): built.request.url?.absoluteString ?? ""
        case .failure(let refusal): "refused: " + refusal.reason
        }
    }

    @Test(arguments: [
        (
            "https://api.example.com", "/todos/a%20b?filter=x%2By&tags=a,b",
            "https://api.example.com/todos/a%20b?filter=x%2By&tags=a,b"
        ),
        ("https://api.example.com/v1/", "/todos", "https://api.example.com/v1/todos"),
        ("https://api.example.com/v1?key=k", "/todos?page=2", "https://api.example.com/v1/todos?key=k&page=2"),
        ("https://api.example.com/v1", "/", "https://api.example.com/v1"),
    ])
    func theTargetIsJoinedAsEncoded(base: String, target: String, url: String) {
        #expect(Self.url(base, target) == url)
    }

    @Test func aTargetWithBytesAUrlCannotCarryIsRefused() {
        let reason = #"the request target "/a b" has characters that are not percent-encoded"#
        #expect(Self.url("https://api.example.com", "/a b") == "refused: " + reason)
    }

    @Test func aDotSegmentIsRefused() {
        let reason =
            #"the request target path "/files/../secrets" has a "." or ".." segment, which would be resolved away "#
            + "before sending"
        #expect(Self.url("https://api.example.com", "/files/../secrets") == "refused: " + reason)
    }
}
