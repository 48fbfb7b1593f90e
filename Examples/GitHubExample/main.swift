// Moya's example service (its GitHub and Giphy targets), ported to Courier and called against a loopback server that
// this example starts itself. Run it with `swift run GitHubExample`; the port is explained in the DocC article
// "Coming from Moya".
import Courier
import CourierTestServer
import Foundation

let server = try await TestServer.start()
// The endpoints name api.github.com; the provider points them at the local server instead.
// snippet: GitHub validation
let validation = ValidationPlugin<GitHubApi> { endpoint in  // was: validationType, per target
    switch endpoint {
    case .zen: ResponseExpectation(statusCodes: [200], contentType: "text/plain")  // .customCodes([200])
    default: nil  // any 2xx: Courier fails other statuses with a typed error, as .successCodes did
    }
}
// end snippet
let github = ApiProvider<GitHubApi>(baseUrl: server.baseUrl, plugins: [validation])

let zen = await github.rawDataResponse(on: .zen)
print("zen: \((try? zen.get()).map { String(decoding: $0, as: UTF8.self) } ?? "failed")")

let user = await github.response(on: .userProfile("ashfurrow"), decodeBodyTo: GitHubUser.self)
print("user: \((try? user.get()).map { "\($0.login) #\($0.id)" } ?? "failed")")

let repositories = await github.response(on: .userRepositories("moya"), decodeBodyTo: [Repository].self)
print("repositories: \((try? repositories.get())?.map(\.name) ?? [])")

let issue = NewIssue(title: "Port to Courier", body: "From Moya's example.")
let created = await github.response(
    on: .createIssue(owner: "moya", repo: "moya", issue: issue),
    decodeBodyTo: Issue.self
)
print("issue: \((try? created.get()).map { "#\($0.number) \($0.title)" } ?? "failed")")

let gif = Data("GIF89a tiny".utf8)
let uploaded = await github.response(on: .uploadGif(gif, username: "moya"), decodeBodyTo: UploadedGif.self)
print("gif: \((try? uploaded.get())?.data.id ?? "failed")")

let token = await github.response(on: .accessToken(code: "c0de"), decodeBodyTo: AccessToken.self)
print("token: \((try? token.get())?.accessToken ?? "failed")")

// A 4xx answer: GitHub's error body, decoded as ClientErrorType.
let rejected = await github.response(
    on: .createIssue(owner: "moya", repo: "moya", issue: NewIssue(title: "")),
    decodeBodyTo: Issue.self
)
if case .failure(.clientError(let statusCode, let gitHubError?)) = rejected {
    print("rejected: \(statusCode) \(gitHubError.message)")
}

await server.stop()
