import Courier
import Foundation

// snippet: GitHub sample data
extension GitHubApi {
    var mockedResponse: MockedResponse? {  // Moya: sampleData, which was always a 200
        switch self {
        case .zen:
            MockedResponse(status: .ok, headers: ["Content-Type": "text/plain"], bodyData: Data("Half measures.".utf8))
        case .userProfile(let name):
            mock(status: .ok, bodyJson: #"{"login": "\#(name)", "id": 100}"#)
        case .userRepositories(let name):
            mock(status: .ok, bodyJson: #"[{"name": "\#(name)"}]"#)
        case .createIssue(_, _, let issue):
            try? mock(status: .created, bodyEncodable: Issue(number: 1, title: issue.title))
        case .uploadGif:
            mock(status: .ok, bodyJson: #"{"data": {"id": "your_new_gif_id"}}"#)
        case .accessToken:
            mock(status: .ok, bodyJson: #"{"access_token": "sample-token"}"#)
        }
    }
}
// end snippet
