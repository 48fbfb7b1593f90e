import Foundation
import Testing

@testable import Courier

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// An endpoint whose every part a test sets.
struct FreeEndpoint: Endpoint, CustomStringConvertible {
    typealias ClientErrorType = TestError
    var baseUrl: URL = URL(string: "https://api.example.com/v1")!
    var subpath: String = "todos"
    var method: HttpMethod = .get
    var queryParameters: [String: QueryParameterValue] = [:]
    var headers: [String: String] = ["Accept": "application/json"]
    var ordered: [(key: String, value: QueryParameterValue)]?
    var timeout: Duration?
    var idleTimeout: Duration?
    var cachePolicy: URLRequest.CachePolicy = .useProtocolCachePolicy
    var encoder = JSONEncoder()
    var maximumResponseBodySize = 16 * 1024 * 1024

    var orderedQueryParameters: [(key: String, value: QueryParameterValue)] {
        ordered ?? queryParameters.sorted { $0.key < $1.key }.map { (key: $0.key, value: $0.value) }
    }

    var description: String { "\(method.name) \(subpath)" }

    /// The request as it would be sent, or the reason it cannot be.
    func built(baseUrl: URL? = nil) -> Result<URLRequest, InvalidRequestError> {
        RequestBuilder.request(for: self, baseUrl: baseUrl, purpose: .inspecting).map(\.request)
    }
}

/// URL joining, query encoding, methods and header checks, without the network.
@Suite struct RequestBuilderTests {
    static let joins: [(base: String, subpath: String, url: String)] = [
        ("https://api.example.com/v1", "todos", "https://api.example.com/v1/todos"),
        ("https://api.example.com/v1/", "todos", "https://api.example.com/v1/todos"),
        ("https://api.example.com/v1", "/todos", "https://api.example.com/v1/todos"),
        ("https://api.example.com/v1/", "/todos/3", "https://api.example.com/v1/todos/3"),
        ("https://api.example.com", "todos", "https://api.example.com/todos"),
        ("https://api.example.com/", "", "https://api.example.com/"),
        ("https://api.example.com/v1", "", "https://api.example.com/v1"),
        ("https://api.example.com/v1", "a?b#c", "https://api.example.com/v1/a%3Fb%23c"),
        ("https://api.example.com/v1", "my file/é", "https://api.example.com/v1/my%20file/%C3%A9"),
        ("https://api.example.com/v1", "100%", "https://api.example.com/v1/100%25"),
        ("http://127.0.0.1:8080/api/v2", "users/me", "http://127.0.0.1:8080/api/v2/users/me"),
        ("http://[::1]:8080/v1", "todos", "http://[::1]:8080/v1/todos"),
        ("https://user:p%40ss@api.example.com/v1", "todos", "https://user:p%40ss@api.example.com/v1/todos"),
        ("https://api.example.com/v1?key=1#top", "todos", "https://api.example.com/v1/todos?key=1#top"),
        ("https://api.example.com/my%20api", "todos", "https://api.example.com/my%20api/todos"),
    ]

    @Test(arguments: joins)
    func joinsBaseUrlAndSubpathWithOneSlash(base: String, subpath: String, url: String) throws {
        let endpoint = FreeEndpoint(baseUrl: URL(string: base)!, subpath: subpath)
        let request = try endpoint.built().get()
        #expect(request.url?.absoluteString == url)
    }

    @Test func encodesQuerySortedAndOutsideUnreservedCharacters() throws {
        let endpoint = FreeEndpoint(queryParameters: [
            "z": "last", "tag": ["a", "b"], "q": "a+b c&d=e#f/g?h%i", "é": "ü", "empty": [],
        ])
        let request = try endpoint.built().get()
        #expect(
            request.url?.query
                == "q=a%2Bb%20c%26d%3De%23f%2Fg%3Fh%25i&tag=a&tag=b&z=last&%C3%A9=%C3%BC"
        )
    }

    @Test func keepsTheBaseUrlsOwnQuery() throws {
        let endpoint = FreeEndpoint(
            baseUrl: URL(string: "https://api.example.com/v1?key=1")!,
            queryParameters: ["page": "2"]
        )
        let request = try endpoint.built().get()
        #expect(request.url?.absoluteString == "https://api.example.com/v1/todos?key=1&page=2")
    }

    @Test func providerBaseUrlOverridesTheEndpoints() throws {
        let request = try FreeEndpoint().built(baseUrl: URL(string: "http://staging.local/v9")).get()
        #expect(request.url?.absoluteString == "http://staging.local/v9/todos")
    }

    @Test(
        arguments: [
            (HttpMethod.get, "GET", nil), (.head, "HEAD", nil), (.options, "OPTIONS", nil), (.delete, "DELETE", nil),
            (.post(body: Data("p".utf8)), "POST", Data("p".utf8)), (.put(Data("u".utf8)), "PUT", Data("u".utf8)),
            (.patch(body: nil), "PATCH", nil),
            (.custom(verb: "PROPFIND", body: .data(Data("x".utf8))), "PROPFIND", Data("x".utf8)),
        ] as [(HttpMethod, String, Data?)]
    )
    func setsMethodAndBody(method: HttpMethod, name: String, body: Data?) throws {
        let request = try FreeEndpoint(method: method).built().get()
        #expect(request.httpMethod == name)
        #expect(request.httpBody == body)
    }

    @Test func setsTheEndpointsHeaders() throws {
        let endpoint = FreeEndpoint(headers: ["X-Api-Version": "3", "Accept": "text/csv"])
        let request = try endpoint.built().get()
        #expect(request.value(forHTTPHeaderField: "x-api-version") == "3")
        #expect(request.value(forHTTPHeaderField: "Accept") == "text/csv")
    }

    /// A provider parses the base URL once and reuses it while the next request has the same one; endpoints with
    /// other base URLs, taking turns from many threads, must each still get their own.
    @Test func eachRequestGetsItsOwnBaseUrlWhenBaseUrlsTakeTurns() async {
        let provider = ApiProvider<FreeEndpoint>(mockingBehavior: MockingBehavior())
        let cases: [(FreeEndpoint, expected: String)] = [
            (FreeEndpoint(baseUrl: URL(string: "https://a.example.com/v1")!), "https://a.example.com/v1/todos"),
            (FreeEndpoint(baseUrl: URL(string: "http://b.example.com:8080")!), "http://b.example.com:8080/todos"),
            (FreeEndpoint(baseUrl: URL(string: "ftp://c.example.com")!), "does not start with http:// or https://"),
        ]
        let outcomes = await withTaskGroup(of: (String, String).self) { group in
            for turn in 0..<300 {
                let (endpoint, expected) = cases[turn % cases.count]
                group.addTask {
                    switch provider.urlRequest(for: endpoint) {
                    case .success(let request): (expected, request.url?.absoluteString ?? "no URL")
                    case .failure(let error): (expected, "\(error)")
                    }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(outcomes.count == 300)
        for (expected, got) in outcomes {
            #expect(got.contains(expected), "expected \(expected), got \(got)")
        }
    }

    static let refusals: [(FreeEndpoint, String)] = [
        (FreeEndpoint(baseUrl: URL(string: "api.example.com/v1")!), "does not start with http:// or https://"),
        (FreeEndpoint(baseUrl: URL(string: "ftp://files.example.com")!), "does not start with http:// or https://"),
        (FreeEndpoint(baseUrl: URL(string: "http:/just/a/path")!), "has no host"),
        (FreeEndpoint(headers: ["X-Evil": "a\r\nX-Injected: 1"]), "contains CR, LF or NUL"),
        (FreeEndpoint(headers: ["X-Evil": "a\nb"]), "contains CR, LF or NUL"),
        (FreeEndpoint(headers: ["X-Evil": "a\u{0}b"]), "contains CR, LF or NUL"),
        (FreeEndpoint(headers: ["Bad Name": "x"]), "is not a valid HTTP token"),
        (FreeEndpoint(headers: ["X-Evil\r\nInjected": "x"]), "is not a valid HTTP token"),
        (FreeEndpoint(method: .custom(verb: "GET /admin HTTP/1.1\r\n", body: nil)), "not a valid HTTP method token"),
        (FreeEndpoint(method: .custom(verb: "", body: nil)), "not a valid HTTP method token"),
    ]

    @Test(arguments: refusals)
    func refusesWhatWouldNotArriveAsWritten(endpoint: FreeEndpoint, reason: String) {
        switch endpoint.built() {
        case .success(let request): Issue.record("built \(request) where it should refuse")
        case .failure(let error): #expect(error.reason.contains(reason), "\(error.reason)")
        }
    }
}
