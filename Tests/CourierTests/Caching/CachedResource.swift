@testable import Courier
import CourierTestServer
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The test server's `/cached/{key}` resource, with the caching fields each test asks the route for.
struct CachedResource: Endpoint {
    typealias ClientErrorType = TestError

    var key: String
    /// The route's query: `cc`, `etag`, `lastModified`, `expires`, `vary`, `age`, `status`, `gather`.
    var query: [String: String] = [:]
    var method: HttpMethod = .get
    var headers: [String: String] = [:]
    var caching: Caching = .standard
    var cachePolicy: URLRequest.CachePolicy = .useProtocolCachePolicy
    var timeout: Duration?

    /// For the mocks; over the network, the provider gives the server's.
    var baseUrl: URL { URL(string: "https://api.example.com") ?? URL(fileURLWithPath: "/") }
    var subpath: String { "cached/\(key)" }
    var queryParameters: [String: QueryParameterValue] { query.mapValues { .string($0) } }

    /// What the route answers with.
    struct Body: Decodable, Equatable {
        let key: String
        let version: Int
        let varied: String
    }
}

extension ApiProvider where EndpointType == CachedResource {
    /// The resource's version as the caller got it, and what the cache did for it.
    func version(of endpoint: CachedResource) async -> (version: Int?, status: CacheStatus?) {
        let response = await fullResponse(on: endpoint, decodeBodyTo: CachedResource.Body.self)
        return ((try? response.result.get())?.version, response.cacheStatus)
    }
}

extension TestServer {
    /// The requests for the `/cached/{key}` resource, as received.
    func requests(forCached key: String) async -> [ReceivedRequest] {
        await receivedRequests().filter { $0.path == "/cached/\(key)" }
    }

    /// Sends `method` to `subpath` past any cache, as another client would.
    func send(_ method: HttpMethod, _ subpath: String, query: [String: String] = [:]) async {
        let endpoint = FreeEndpoint(subpath: subpath, method: method, queryParameters: query.mapValues { .string($0) })
        _ = await ApiProvider<FreeEndpoint>(baseUrl: baseUrl).rawDataResponse(on: endpoint)
    }
}

extension HttpCache {
    /// Whether no revalidation runs in the background.
    var isRevalidationDone: Bool { revalidations.withLock { $0.isEmpty } }

    /// Returns once `count` callers wait for shared exchanges, or the test was cancelled (by its time limit).
    func waitForCallers(_ count: Int) async {
        while exchanges.callerCount < count, !Task.isCancelled { await Task.yield() }
    }
}
