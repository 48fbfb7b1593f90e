import Courier
import CourierTestServer
import Foundation
import Testing

@testable import TodoExample

/// An API whose calls the Caching article shows: the test server's `/cached` resource, with the caching fields each
/// case asks it for.
enum MemberApi: Endpoint {
    typealias ClientErrorType = TodoError

    case profile
    case balance
    case news

    var subpath: String {
        switch self {
        case .profile: "cached/profile"
        case .balance: "cached/balance"
        case .news: "cached/news"
        }
    }

    /// For the mocks; over the network, the provider gives the test server's.
    var baseUrl: URL { URL(string: "https://api.example.com") ?? URL(fileURLWithPath: "/") }

    var method: HttpMethod { .get }

    var queryParameters: [String: QueryParameterValue] {
        switch self {
        case .profile: ["cc": "max-age=60"]
        case .balance: ["cc": "max-age=60"]
        case .news: ["etag": "1", "cc": "no-cache"]
        }
    }

    // snippet: Caching per endpoint
    var caching: Caching {
        switch self {
        case .profile: .standard.sharingInFlight().servingStaleWhenOffline()
        case .balance: .bypass
        default: .standard
        }
    }
    // end snippet
}

/// What the route answers with.
struct Resource: Decodable, Equatable {
    let key: String
    let version: Int
}

/// The Caching article's snippets, run against the loopback server and on mocks.
@Suite(.timeLimit(.minutes(HangGuard.minutes))) struct CachingSnippets {
    @Test func aProviderWithACache() async throws {
        try await TestServer.withServer { server in
            // snippet: HttpCache doc
            let cache = HttpCache(byteLimit: 20 << 20)
            let provider = ApiProvider<TodoApi>(cache: cache)
            // end snippet
            provider.baseUrl = server.baseUrl
            let first = await provider.response(on: .list(page: 1), decodeBodyTo: [Todo].self)
            #expect((try? first.get()) != nil)
            #expect(cache.sharesInFlight == false)
        }
    }

    @Test func perEndpointCaching() async throws {
        try await TestServer.withServer { server in
            let provider = ApiProvider<MemberApi>(
                baseUrl: server.baseUrl,
                scheduler: TestScheduler(),
                cache: HttpCache()
            )
            var statuses: [CacheStatus?] = []
            for endpoint in [MemberApi.profile, .profile, .balance, .balance] {
                statuses.append(await provider.fullResponse(on: endpoint, decodeBodyTo: Resource.self).cacheStatus)
            }
            #expect(statuses == [.miss, .hit, nil, nil])
            #expect(await server.receivedRequests().filter { $0.path == "/cached/balance" }.count == 2)
        }
    }

    @Test func accountsAndStaleAnswers() async throws {
        try await TestServer.withServer { server in
            let cache = HttpCache()
            let scheduler = TestScheduler()
            let provider = ApiProvider<MemberApi>(baseUrl: server.baseUrl, scheduler: scheduler, cache: cache)
            let accountId = "alice"
            // snippet: Caching sign in
            cache.partition = accountId
            // end snippet
            _ = await provider.response(on: .profile, decodeBodyTo: Resource.self)
            // Past its 60 seconds of freshness, and the server is gone.
            await scheduler.advance(by: .seconds(120))
            await server.stop()
            // snippet: Caching status
            let response = await provider.fullResponse(on: .profile, decodeBodyTo: Resource.self)
            if response.cacheStatus == .stale(.offline) {
                print("Offline: showing what was loaded before")
            }
            // end snippet
            #expect(response.cacheStatus == .stale(.offline))
            #expect((try? response.result.get())?.version == 1)
            // snippet: Caching sign out
            cache.removeAll(inPartition: accountId)
            // end snippet
            let afterSignOut = await provider.fullResponse(on: .profile, decodeBodyTo: Resource.self)
            #expect(afterSignOut.cacheStatus == nil)
            #expect((try? afterSignOut.result.get()) == nil)
        }
    }

    @Test func onDisk() throws {
        let caches = FileManager.default.temporaryDirectory.appendingPathComponent("courier-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: caches) }
        // snippet: Caching directory
        let cache = try HttpCache(directory: caches.appendingPathComponent("api"), byteLimit: 50 << 20)
        // end snippet
        #expect(cache.servesStaleWhenOffline == false)
        #expect(FileManager.default.fileExists(atPath: caches.appendingPathComponent("api").path))
    }

    @Test func freshnessOnVirtualTime() async throws {
        // snippet: Caching test
        let scheduler = TestScheduler()
        let behavior = MockingBehavior<MemberApi>(scheduler: scheduler) { _ in
            MockedResponse(
                status: .ok,
                bodyJson: #"{"key": "profile", "version": 1}"#,
                headers: ["Cache-Control": "max-age=60"]
            )
        }
        let provider = ApiProvider(mockingBehavior: behavior, cache: HttpCache())

        _ = await provider.fullResponse(on: .profile, decodeBodyTo: Resource.self)
        await scheduler.advance(by: .seconds(59))
        let fresh = await provider.fullResponse(on: .profile, decodeBodyTo: Resource.self)
        #expect(fresh.cacheStatus == .hit)
        await scheduler.advance(by: .seconds(2))
        let stale = await provider.fullResponse(on: .profile, decodeBodyTo: Resource.self)
        #expect(stale.cacheStatus == .miss)
        // end snippet
    }
}
