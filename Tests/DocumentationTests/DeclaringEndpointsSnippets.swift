// snippet: FoundationNetworking import
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking  // URLRequest, URLResponse and URLSession on Linux
#endif
// end snippet
import Courier
import CourierTestServer
import Testing

@testable import TodoExample

// snippet: weather endpoint
enum WeatherApi {
    case forecast(city: String, days: Int)
}

extension WeatherApi: Endpoint {
    typealias ClientErrorType = EmptyBodyResponse

    var subpath: String { "forecast" }
    var method: HttpMethod { .get }
    var queryParameters: [String: QueryParameterValue] {
        switch self {
        case .forecast(let city, let days): ["city": .string(city), "days": .int(days)]
        }
    }
}
// end snippet

enum SearchApi: Endpoint {
    typealias ClientErrorType = EmptyBodyResponse

    case search(text: String, tags: [String])

    var subpath: String { "echo/search" }
    var method: HttpMethod { .get }

    // snippet: ordered query
    var orderedQueryParameters: [(key: String, value: QueryParameterValue)] {
        switch self {
        case .search(let text, let tags):
            [("q", .string(text)), ("tag", .array(tags, style: .commaSeparated)), ("page", 1), ("draft", false)]
        }
    }
    // end snippet
}

enum TunedApi: Endpoint {
    typealias ClientErrorType = EmptyBodyResponse

    case report

    var subpath: String { "echo/report" }
    var method: HttpMethod { .get }

    static let isoDates: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }()

    // snippet: headers time and size
    var headers: [String: String] { ["X-Api-Version": "3"] }  // added to Accept and the body's Content-Type
    var timeout: Duration? { .seconds(30) }  // per sending, from sending to the last byte
    var maximumResponseBodySize: Int { 64 * 1024 * 1024 }  // a larger answer fails with responseBodyTooLarge
    var decoder: JSONDecoder { Self.isoDates }  // one instance, made once: not a new decoder per request
    // end snippet
}

/// ``TunedApi`` as a test sends it: its path, headers, size limit and decoder, with a timeout of hang-guard size in
/// place of the snippet's 30 s, a limit that must not run out for the test to pass.
enum SentTunedApi: Endpoint {
    typealias ClientErrorType = EmptyBodyResponse

    case report

    var subpath: String { TunedApi.report.subpath }
    var method: HttpMethod { TunedApi.report.method }
    var headers: [String: String] { TunedApi.report.headers }
    var timeout: Duration? { .seconds(60) }
    var maximumResponseBodySize: Int { TunedApi.report.maximumResponseBodySize }
    var decoder: JSONDecoder { TunedApi.report.decoder }
}

/// The Declaring endpoints article's snippets, run against the loopback server where they send.
@Suite struct DeclaringEndpointsSnippets {
    @Test func anEndpointWithoutBaseUrlGoesWhereTheProviderSays() async throws {
        // snippet: weather provider
        let weather = ApiProvider<WeatherApi>(baseUrl: URL(string: "https://weather.example.com/v2")!)
        // end snippet
        let request = try weather.urlRequest(for: .forecast(city: "Oslo", days: 3)).get()
        #expect(request.url?.absoluteString == "https://weather.example.com/v2/forecast?city=Oslo&days=3")

        let unnamed = ApiProvider<WeatherApi>().urlRequest(for: .forecast(city: "Oslo", days: 3))
        let reason =
            #"WeatherApi.forecast(city: "Oslo", days: 3) has no base URL; pass one to ApiProvider(baseUrl:) or "#
            + "declare `baseUrl` on WeatherApi"
        #expect(unnamed.map(\.url) == .failure(.invalidRequest(reason: reason)))
    }

    @Test func theOrderedQueryArrivesInItsOrder() async throws {
        try await TestServer.withServer { server in
            let provider = ApiProvider<SearchApi>(baseUrl: server.baseUrl)
            let received = try await provider.response(
                on: .search(text: "a b", tags: ["x", "y,z"]),
                decodeBodyTo: ReceivedRequest.self
            ).get()
            #expect(received.query == "q=a%20b&tag=x,y%2Cz&page=1&draft=false")
        }
    }

    /// The snippet's endpoint as built, and its headers as the server receives them: sent as ``SentTunedApi``, whose
    /// timeout cannot run out in a test, since a loopback sending in the parallel suite has waited 20 s behind the
    /// 200 MB uploads on FoundationNetworking's one libcurl queue.
    @Test func headersAndTimeAndSizeAreApplied() async throws {
        try await TestServer.withServer { server in
            let request = try ApiProvider<TunedApi>(baseUrl: server.baseUrl).urlRequest(for: .report).get()
            // The sending's whole timeout is the pipeline's; the request keeps the transport's idle limit.
            #expect(TunedApi.report.timeout == .seconds(30))
            #expect(request.timeoutInterval == 60)
            #expect(request.value(forHTTPHeaderField: "X-Api-Version") == "3")
            #expect(TunedApi.report.maximumResponseBodySize == 64 * 1024 * 1024)
            let provider = ApiProvider<SentTunedApi>(baseUrl: server.baseUrl)
            let received = try await provider.response(on: .report, decodeBodyTo: ReceivedRequest.self).get()
            #expect(received.header("X-Api-Version") == "3")
            #expect(received.header("Accept") == "application/json")
        }
    }

    @Test func aRequestCanBeSeenWithoutSendingIt() throws {
        let provider = ApiProvider<TodoApi>()
        // snippet: inspect request
        let request = try provider.urlRequest(for: .list(page: 2)).get()
        #expect(request.url?.absoluteString == "https://api.example.com/v1/todos?page=2")
        #expect(request.allHTTPHeaderFields == ["Accept": "application/json"])
        // end snippet
    }
}
