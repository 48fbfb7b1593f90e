import Courier
import CourierTestServer
import Foundation
import Testing

struct Post: Codable, Equatable, Sendable {
    var title: String
}

struct PostsError: Decodable, Equatable, Sendable {
    var code: Int
    var message: String
}

// snippet: Microya endpoint file
enum PostsApi {
    case index(sortedBy: String)
    case create(post: Post)
    case tag(postId: String, tags: [URLQueryItem])
}

extension PostsApi: Endpoint {
    typealias ClientErrorType = PostsError

    var headers: [String: String] {
        ["Content-Type": "application/json", "Accept": "application/json", "Accept-Language": "en"]
    }

    var subpath: String {
        switch self {
        case .index, .create: return "posts"
        case .tag(let postId, _): return "posts/\(postId)/tags"
        }
    }

    var method: HttpMethod {
        switch self {
        case .index: return .get
        case .create(let newPost): return .post(body: try? encoder.encode(newPost))
        case .tag(_, let tags): return patch(queryItemsToWwwUrlEncode: tags)
        }
    }

    var queryParameters: [String: QueryParameterValue] {
        switch self {
        case .index(let sortedBy): return ["sortedBy": .string(sortedBy)]
        default: return [:]
        }
    }

    var mockedResponse: MockedResponse? {
        switch self {
        case .index: return mock(status: .ok, bodyJson: #"[{"title":"Hello"}]"#)
        default: return nil
        }
    }
}
// end snippet

/// The Coming from Microya article's snippets: Microya code that compiles as it is, run against the loopback server.
@Suite(.timeLimit(.minutes(HangGuard.minutes))) struct ComingFromMicroyaSnippets {
    @Test func aMicroyaEndpointFileSendsWhatItSays() async throws {
        try await TestServer.withServer { server in
            // snippet: Microya provider
            let provider = ApiProvider<PostsApi>(
                baseUrl: URL(string: "https://api.example.com")!,
                plugins: [HttpAuthPlugin(scheme: .bearer, tokenClosure: { "abc123" })]
            )
            // end snippet
            provider.baseUrl = server.url("/echo")
            let result = await provider.response(on: .index(sortedBy: "date"), decodeBodyTo: ReceivedRequest.self)
            let index = try result.get()
            #expect(index.path == "/echo/posts")
            #expect(index.query == "sortedBy=date")
            #expect(index.header("Authorization") == "Bearer abc123")
            #expect(index.header("Accept-Language") == "en")

            let created = try await provider.response(
                on: .create(post: Post(title: "Hi")),
                decodeBodyTo: ReceivedRequest.self
            )
            .get()
            #expect(try JSONDecoder().decode(Post.self, from: created.body) == Post(title: "Hi"))
            let tagged = try await provider.response(
                on: .tag(postId: "7", tags: [URLQueryItem(name: "tag", value: "a b")]),
                decodeBodyTo: ReceivedRequest.self
            ).get()
            #expect(tagged.method == "PATCH")
            #expect(tagged.formFields == [.init(name: "tag", value: "a b")])
        }
    }

    @Test func aMicroyaMockedProviderAnswersOnTheMainQueueAfterItsDelay() async throws {
        // snippet: Microya mocked provider
        let mocked = ApiProvider<PostsApi>(
            baseUrl: URL(string: "https://api.example.com")!,
            mockingBehavior: MockingBehavior(
                delay: .seconds(0.2),
                scheduler: DispatchQueue.main.eraseToAnyScheduler(),
                mockedResponseProvider: { endpoint in
                    MockedResponse(subpath: endpoint.subpath, statusCode: HttpStatus.ok.code, bodyJson: "[]")
                }
            )
        )
        // end snippet
        let started = ContinuousClock.now
        let posts = try await mocked.response(on: .index(sortedBy: "date"), decodeBodyTo: [Post].self).get()
        #expect(posts.isEmpty)
        #expect(started.duration(to: .now) >= .milliseconds(200))
    }

    @Test func aTestSchedulerReplacesCombineSchedulersTestScheduler() async throws {
        // snippet: Microya test scheduler
        let testScheduler = TestScheduler()  // was: DispatchQueue.test
        let mocked = ApiProvider<PostsApi>(
            baseUrl: URL(string: "https://api.example.com")!,
            mockingBehavior: MockingBehavior(delay: .seconds(0.5), scheduler: testScheduler)
        )
        async let posts = mocked.response(on: .index(sortedBy: "date"), decodeBodyTo: [Post].self)
        await testScheduler.advance(by: .milliseconds(500))
        // end snippet
        #expect(try await posts.get() == [Post(title: "Hello")])
    }

    @Test func newErrorCasesNeedADefaultInAnExhaustiveSwitch() async {
        let mocked = ApiProvider<PostsApi>(
            baseUrl: URL(string: "https://api.example.com")!,
            mockingBehavior: MockingBehavior()
        )
        let result = await mocked.response(on: .create(post: Post(title: "x")), decodeBodyTo: Post.self)
        guard case .failure(let error) = result else {
            Issue.record("expected a failure, got \(result)")
            return
        }
        // snippet: Microya error switch
        switch error {
        case .clientError(let statusCode, let postsError):
            print("rejected with \(statusCode): \(postsError?.message ?? "")")
        case .noResponseReceived, .cancelled:
            print("offline or cancelled")
        default:  // also Courier's invalidRequest, responseBodyTooLarge, fileError and pluginFailed
            print(error.localizedDescription)
        }
        // end snippet
        #expect(error == .emptyMockedResponse)
    }
}
