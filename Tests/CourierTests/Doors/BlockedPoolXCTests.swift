#if AsyncHTTPClient
import AsyncHTTPClient
import Courier
import CourierAsyncHTTPClient
import CourierTestServer
import Foundation
import XCTest

/// Blocking waits on every thread of Swift concurrency's pool, while requests go out over AsyncHTTPClient.
///
/// An XCTest on purpose: XCTest cases run one at a time, before the Swift Testing suites, so blocking the pool here
/// cannot starve the in-process servers of tests running alongside.
final class BlockedPoolXCTests: XCTestCase {
    enum ListApi: Endpoint {
        typealias ClientErrorType = EmptyBodyResponse
        case list

        var baseUrl: URL { URL(string: "http://127.0.0.1:1")! }
        var subpath: String { "todos" }
        var method: HttpMethod { .get }
        /// A starved request fails by this timeout (Dispatch's, not the pool's) instead of hanging the test run; a
        /// hang guard, which a request that is merely slow on a busy machine never reaches.
        var timeout: Duration? { HangGuard.duration }
    }

    func testBlockingWaitsInsideTasksDoNotStarveAsyncHttpClientRequests() async throws {
        let server = try await EventLoopServer.start()
        let client = HTTPClient(eventLoopGroupProvider: .singleton)
        let provider = ApiProvider<ListApi>(
            baseUrl: URL(string: "http://127.0.0.1:\(server.port)"),
            transport: AsyncHTTPClientTransport(client: client)
        )
        let cooperativeThreads = ProcessInfo.processInfo.activeProcessorCount
        // More blocked tasks than the pool has threads: the transport must carry the requests on threads of its own.
        let results = await withTaskGroup(of: ApiProvider<ListApi>.TypedResult<[String]>.self) { group in
            for _ in 0..<(4 * cooperativeThreads) {
                group.addTask { provider.performRequestAndWait(on: .list, decodeBodyTo: [String].self) }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        XCTAssertEqual(results.count, 4 * cooperativeThreads)
        for result in results {
            XCTAssertEqual(try? result.get(), [], "\(result)")
        }
        try await client.shutdown()
        try await server.stop()
    }
}
#endif
