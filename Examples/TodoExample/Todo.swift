// snippet: README models
struct Todo: Codable, Equatable, Sendable {
    var id: Int?
    var title: String
    var done: Bool?
}

struct TodoError: Decodable, Equatable, Sendable {
    var code: Int
    var message: String
}
// end snippet
