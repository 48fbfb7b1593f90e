// snippet: GitHub endpoint
import Courier
import Foundation

enum GitHubApi {
    case zen
    case userProfile(String)
    case userRepositories(String)
    case createIssue(owner: String, repo: String, issue: NewIssue)
    case uploadGif(Data, username: String)
    case accessToken(code: String)
}

extension GitHubApi: Endpoint {
    typealias ClientErrorType = GitHubError  // the body of a 4xx, decoded for you

    var baseUrl: URL { URL(string: "https://api.github.com")! }  // Moya: baseURL

    var subpath: String {  // Moya: path; a subpath is percent-encoded by Courier, no urlEscaped needed
        switch self {
        case .zen: "zen"
        case .userProfile(let name): "users/\(name)"
        case .userRepositories(let name): "users/\(name)/repos"
        case .createIssue(let owner, let repo, _): "repos/\(owner)/\(repo)/issues"
        case .uploadGif: "gifs"
        case .accessToken: "login/oauth/access_token"
        }
    }

    var method: HttpMethod {  // Moya: method, and the body part of task
        switch self {
        case .zen, .userProfile, .userRepositories:
            .get  // .requestPlain, or .requestParameters(…, encoding: URLEncoding.default): see queryParameters
        case .createIssue(_, _, let issue):
            .post(body: .json(issue))  // .requestJSONEncodable(issue)
        case .uploadGif(let gif, _):  // .uploadCompositeMultipart([MultipartFormBodyPart(…)], urlParameters: …)
            .post(body: .multipart([.data(name: "file", data: gif, filename: "gif.gif", mediaType: "image/gif")]))
        case .accessToken(let code):  // .requestParameters(parameters: …, encoding: URLEncoding.httpBody)
            .post(body: .form(["client_id": "courier-example", "code": code]))
        }
    }

    var queryParameters: [String: QueryParameterValue] {  // Moya: the URL parameters of task
        switch self {
        case .userRepositories: ["sort": "pushed"]
        case .uploadGif(_, let username): ["api_key": "dc6zaTOxFJmzC", "username": .string(username)]
        case .zen, .userProfile, .createIssue, .accessToken: [:]
        }
    }

    var headers: [String: String] {  // Moya: headers
        switch self {
        case .zen: ["Accept": "text/plain"]
        default: [:]
        }
    }
}
// end snippet
