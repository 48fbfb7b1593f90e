import Courier
import CourierTestServer
import Foundation
import Testing

@testable import GitHubExample

/// The service ported from Moya's example: what the server receives, the stubbed answers its sample data gives, and
/// the example as `swift run GitHubExample` runs it.
@Suite(.timeLimit(.minutes(HangGuard.minutes))) struct GitHubExampleTests {
    /// Over URLSession and over libcurl (Linux's default), which the port must not tell apart.
    @Test(arguments: [false, true]) func eachEndpointArrivesAsItsMoyaTaskSentIt(overLibcurl: Bool) async throws {
        try await TestServer.withServer { server in
            let github =
                overLibcurl
                ? ApiProvider<GitHubApi>(baseUrl: server.baseUrl, transport: CurlTransport())
                : ApiProvider<GitHubApi>(baseUrl: server.baseUrl, transport: URLSessionTransport())
            _ = try await github.rawDataResponse(on: .zen).get()
            _ = try await github.response(on: .userRepositories("moya"), decodeBodyTo: [Repository].self).get()
            let issue = NewIssue(title: "Port", body: "Zoë's \"notes\"")
            _ = try await github.response(
                on: .createIssue(owner: "moya", repo: "moya", issue: issue),
                decodeBodyTo: Issue.self
            )
            .get()
            let gif = Data([0x47, 0x49, 0x46, 0x38, 0x39, 0x61, 0, 1])
            _ = try await github.response(on: .uploadGif(gif, username: "ann"), decodeBodyTo: UploadedGif.self).get()
            _ = try await github.response(on: .accessToken(code: "a b&c"), decodeBodyTo: AccessToken.self).get()

            let received = await server.receivedRequests()
            try #require(received.count == 5)
            #expect(received[0].header("Accept") == "text/plain")
            #expect(received[1].path == "/users/moya/repos")
            #expect(received[1].query == "sort=pushed")  // URLEncoding.default on a GET
            #expect(received[2].header("Content-Type") == "application/json")  // requestJSONEncodable
            #expect(try JSONDecoder().decode(NewIssue.self, from: received[2].body) == issue)
            #expect(received[3].query == "api_key=dc6zaTOxFJmzC&username=ann")  // the composite's urlParameters
            let parts = try #require(received[3].multipartParts)
            #expect(parts.map(\.name) == ["file"])
            #expect(parts.map(\.filename) == ["gif.gif"])
            #expect(parts.map(\.contentType) == ["image/gif"])
            #expect(parts.map(\.body) == [gif])
            #expect(received[4].header("Content-Type") == "application/x-www-form-urlencoded")  // URLEncoding.httpBody
            #expect(
                received[4].formFields == [
                    .init(name: "client_id", value: "courier-example"), .init(name: "code", value: "a b&c"),
                ]
            )
        }
    }

    // snippet: GitHub stubbed test
    @Test func aStubbedProviderAnswersWithTheSampleData() async throws {
        let github = ApiProvider<GitHubApi>(mockingBehavior: MockingBehavior())  // was: stubClosure: immediatelyStub
        let user = try await github.response(on: .userProfile("ashfurrow"), decodeBodyTo: GitHubUser.self).get()
        #expect(user == GitHubUser(login: "ashfurrow", id: 100))
    }
    // end snippet

    @Test func everyEndpointHasSampleDataThatDecodes() async throws {
        let github = ApiProvider<GitHubApi>(mockingBehavior: MockingBehavior())
        #expect(try await github.rawDataResponse(on: .zen).get() == Data("Half measures.".utf8))
        #expect(
            try await github.response(on: .userRepositories("moya"), decodeBodyTo: [Repository].self).get() == [
                Repository(name: "moya")
            ]
        )
        let created = try await github.response(
            on: .createIssue(owner: "o", repo: "r", issue: NewIssue(title: "t")),
            decodeBodyTo: Issue.self
        ).get()
        #expect(created == Issue(number: 1, title: "t"))
        #expect(
            try await github.response(on: .uploadGif(Data(), username: "u"), decodeBodyTo: UploadedGif.self).get().data
                .id == "your_new_gif_id"
        )
        #expect(
            try await github.response(on: .accessToken(code: "c"), decodeBodyTo: AccessToken.self).get().accessToken
                == "sample-token"
        )
    }

    @Test func aStubbedFailureReplacesAnEndpointClosure() async throws {
        // snippet: GitHub stubbed failure
        let github = ApiProvider<GitHubApi>(
            mockingBehavior: MockingBehavior { endpoint in  // was: an endpointClosure with .networkResponse(401, …)
                endpoint.mock(status: .unauthorized, bodyJson: #"{"message": "Bad credentials"}"#)
            }
        )
        let result = await github.response(on: .userProfile("ashfurrow"), decodeBodyTo: GitHubUser.self)
        #expect(result == .failure(.clientError(statusCode: 401, clientError: GitHubError(message: "Bad credentials"))))
        // end snippet
    }

    @Test func theExampleRunsAgainstItsOwnServer() throws {
        let run = try ExampleRun("GitHubExample")
        #expect(run.status == 0)
        #expect(
            run.printed == """
                zen: Half measures are as bad as nothing at all.
                user: ashfurrow #100
                repositories: ["moya-pushed-1", "moya-pushed-2"]
                issue: #1 Port to Courier
                gif: gif-by-moya
                token: token-for-c0de
                rejected: 422 Validation Failed

                """
        )
    }
}
