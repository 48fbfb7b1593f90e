// snippet: GitHub models
struct GitHubUser: Decodable, Equatable, Sendable {
    var login: String
    var id: Int
}

struct Repository: Decodable, Equatable, Sendable {
    var name: String
}

struct NewIssue: Codable, Equatable, Sendable {
    var title: String
    var body: String?
}

struct Issue: Codable, Equatable, Sendable {
    var number: Int
    var title: String
}

struct UploadedGif: Decodable, Equatable, Sendable {
    struct Content: Decodable, Equatable, Sendable {
        var id: String
    }
    var data: Content
}

struct AccessToken: Decodable, Equatable, Sendable {
    var accessToken: String

    enum CodingKeys: String, CodingKey {
        case accessToken = "access_token"
    }
}

/// GitHub's error body, e.g. `{"message": "Bad credentials"}`.
struct GitHubError: Decodable, Equatable, Sendable {
    var message: String
}
// end snippet
