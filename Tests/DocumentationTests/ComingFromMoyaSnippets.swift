import Courier
import CourierTestServer
import Foundation
import Testing

@testable import GitHubExample
@testable import TodoExample

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// snippet: Moya qualified Endpoint
// In a file that imports both Moya and Courier while an app moves over, `Endpoint` names two types.
enum StatusApi: Courier.Endpoint {
    typealias ClientErrorType = EmptyBodyResponse

    case health

    var subpath: String { "status/200" }
    var method: HttpMethod { .get }
}
// end snippet

// snippet: Moya endpoint closure as plugin
final class AppVersionPlugin: Plugin<GitHubApi>, @unchecked Sendable {
    override func modifyRequest(_ request: inout URLRequest, endpoint: GitHubApi) {
        var fields = request.allHTTPHeaderFields ?? [:]
        fields["X-App-Version"] = "2.1"
        request.allHTTPHeaderFields = fields
    }
}
// end snippet

/// The Coming from Moya article's snippets, run against the loopback server or mocks.
@Suite(.timeLimit(.minutes(HangGuard.minutes))) struct ComingFromMoyaSnippets {
    @Test func aQualifiedConformanceWorksLikeAnyOther() async throws {
        try await TestServer.withServer { server in
            let provider = ApiProvider<StatusApi>(baseUrl: server.baseUrl)
            #expect(await provider.response(on: .health) == .success(EmptyBodyResponse()))
        }
    }

    @Test func aPluginAddsWhatAnEndpointClosureAdded() async throws {
        try await TestServer.withServer { server in
            let github = ApiProvider<GitHubApi>(baseUrl: server.baseUrl, plugins: [AppVersionPlugin()])
            _ = try await github.response(on: .userProfile("ann"), decodeBodyTo: GitHubUser.self).get()
            #expect(await server.receivedRequests().map { $0.header("X-App-Version") } == ["2.1"])
        }
    }

    @Test func providersOfSeveralApisShareOneTransport() async throws {
        try await TestServer.withServer { server in
            // snippet: Moya multi target
            let transport = URLSessionTransport()  // one session, one connection pool
            let github = ApiProvider<GitHubApi>(transport: transport)
            let todos = ApiProvider<TodoApi>(transport: transport)
            // end snippet
            github.baseUrl = server.baseUrl
            todos.baseUrl = server.baseUrl
            async let user = github.response(on: .userProfile("ann"), decodeBodyTo: GitHubUser.self)
            async let listed = todos.response(on: .list(page: 1), decodeBodyTo: [Todo].self)
            let (gotUser, gotTodos) = try await (user.get(), listed.get())
            #expect(gotUser == GitHubUser(login: "ann", id: 100))
            #expect(gotTodos.count == 3)
        }
    }

    @Test func aCompletionDoorTakesThePlaceOfRequest() async throws {
        try await TestServer.withServer { server in
            let github = ApiProvider<GitHubApi>(baseUrl: server.baseUrl)
            let login: String? = await withCheckedContinuation { continuation in
                @Sendable func show(_ login: String?) { continuation.resume(returning: login) }
                // snippet: Moya request
                github.performRequest(on: .userProfile("ashfurrow"), decodeBodyTo: GitHubUser.self) { result in
                    switch result {
                    case .success(let user):  // was: try response.filterSuccessfulStatusCodes().map(GitHubUser.self)
                        show(user.login)
                    case .failure(.clientError(let statusCode, let gitHubError)):  // was: MoyaError.statusCode
                        print(statusCode, gitHubError?.message ?? "")
                        show(nil)
                    case .failure(let error):
                        print(error.localizedDescription)
                        show(nil)
                    }
                }
                // end snippet
            }
            #expect(login == "ashfurrow")
        }
    }

    @Test func aDelayedStubWaitsOnVirtualTime() async throws {
        // snippet: Moya delayed stub
        let scheduler = TestScheduler()
        let github = ApiProvider<GitHubApi>(  // was: stubClosure: MoyaProvider.delayedStub(1.5)
            mockingBehavior: MockingBehavior(delay: .seconds(1.5), scheduler: scheduler)
        )
        async let zen = github.rawDataResponse(on: .zen)
        await scheduler.advance(by: .seconds(1.5))  // no real waiting
        #expect(try await zen.get() == Data("Half measures.".utf8))
        // end snippet
    }

    @Test func theWholeResponseTakesThePlaceOfMoyasResponse() async throws {
        try await TestServer.withServer { server in
            let github = ApiProvider<GitHubApi>(baseUrl: server.baseUrl)
            // snippet: Moya response
            let full = await github.fullResponse(on: .zen, decodeBodyTo: Data.self)
            let statusCode = full.statusCode  // was: response.statusCode
            let text = full.body.map { String(decoding: $0, as: UTF8.self) }  // was: try response.mapString()
            // end snippet
            #expect(statusCode == 200)
            #expect(text == "Half measures are as bad as nothing at all.")
        }
    }
}
