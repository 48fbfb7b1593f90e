import Courier
import CourierTestServer
import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Written as for Microya 0.5 and later: no `baseUrl`, the provider names the server.
enum ProviderBasedApi {
    case items(page: Int)
}

extension ProviderBasedApi: Endpoint {
    typealias ClientErrorType = EmptyBodyResponse

    var subpath: String { "echo/items" }
    var method: HttpMethod { .get }
    var queryParameters: [String: QueryParameterValue] {
        switch self {
        case .items(let page): ["page": .int(page)]
        }
    }
}

/// Written as for Microya 0.4: the endpoint names its server.
enum EndpointBasedApi {
    case items(server: URL)
}

extension EndpointBasedApi: Endpoint {
    typealias ClientErrorType = EmptyBodyResponse

    var baseUrl: URL {
        switch self {
        case .items(let server): server
        }
    }
    var subpath: String { "legacy" }
    var method: HttpMethod { .get }
}

/// Both ways of naming the server work in one codebase; with neither, nothing is sent and the error names the
/// endpoint.
@Suite struct BaseUrlStylesTests {
    @Test(arguments: Door.allCases) func anEndpointWithoutBaseUrlGoesToTheProvidersServer(door: Door) async throws {
        try await TestServer.withServer { server in
            let provider = ApiProvider<ProviderBasedApi>(baseUrl: server.baseUrl)
            let result = await provider.result(through: door, on: .items(page: 2), decodeBodyTo: ReceivedRequest.self)
            let received = try result.get()
            #expect(received.path == "/echo/items")
            #expect(received.query == "page=2")
        }
    }

    @Test(arguments: Door.allCases) func anEndpointWithItsOwnBaseUrlGoesThereWithoutAProviderBaseUrl(
        door: Door
    ) async throws {
        try await TestServer.withServer { server in
            let provider = ApiProvider<EndpointBasedApi>()
            let result = await provider.result(
                through: door,
                on: .items(server: server.url("/echo/v1")),
                decodeBodyTo: ReceivedRequest.self
            )
            let received = try result.get()
            #expect(received.path == "/echo/v1/legacy")
        }
    }

    @Test func theProvidersBaseUrlWinsOverTheEndpoints() async throws {
        try await TestServer.withServer { server in
            let provider = ApiProvider<EndpointBasedApi>(baseUrl: server.url("/echo/staging"))
            let unreachable = try #require(URL(string: "http://127.0.0.1:1/production"))
            let result = await provider.response(on: .items(server: unreachable), decodeBodyTo: ReceivedRequest.self)
            let received = try result.get()
            #expect(received.path == "/echo/staging/legacy")
        }
    }

    @Test(arguments: Door.allCases) func withNeitherNothingIsSentAndTheErrorNamesTheEndpoint(door: Door) async {
        let reason =
            "ProviderBasedApi.items(page: 3) has no base URL; pass one to ApiProvider(baseUrl:) or declare "
            + "`baseUrl` on ProviderBasedApi"
        let live = ApiProvider<ProviderBasedApi>()
        let result = await live.result(through: door, on: .items(page: 3), decodeBodyTo: EmptyBodyResponse.self)
        #expect(result == .failure(.invalidRequest(reason: reason)))
        #expect(live.urlRequest(for: .items(page: 3)).map(\.url) == .failure(.invalidRequest(reason: reason)))

        // A mocked provider takes the same path: a test cannot pass where the app would fail.
        let mocked = ApiProvider<ProviderBasedApi>(mockingBehavior: MockingBehavior { $0.mock(status: .ok) })
        let mockedResult = await mocked.result(
            through: door,
            on: .items(page: 3),
            decodeBodyTo: EmptyBodyResponse.self
        )
        #expect(mockedResult == .failure(.invalidRequest(reason: reason)))
    }

    @Test func aChangedProviderBaseUrlIsUsedByTheRequestsStartedAfterwards() async throws {
        try await TestServer.withServer { first in
            try await TestServer.withServer { second in
                let provider = ApiProvider<ProviderBasedApi>(baseUrl: first.baseUrl)
                _ = try await provider.response(on: .items(page: 1), decodeBodyTo: ReceivedRequest.self).get()
                provider.baseUrl = second.baseUrl
                _ = try await provider.response(on: .items(page: 2), decodeBodyTo: ReceivedRequest.self).get()
                provider.baseUrl = nil
                let none = await provider.response(on: .items(page: 3), decodeBodyTo: ReceivedRequest.self)
                #expect(await first.receivedRequests().map(\.query) == ["page=1"])
                #expect(await second.receivedRequests().map(\.query) == ["page=2"])
                guard case .failure(.invalidRequest) = none else {
                    Issue.record("expected invalidRequest, got \(none)")
                    return
                }
            }
        }
    }

    @Test func theDefaultBaseUrlIsAPlaceholderNeverSentTo() {
        #expect(ProviderBasedApi.items(page: 1).baseUrl.absoluteString == "courier:no-base-url")
    }
}
