// snippet: README endpoint
import Courier
import Foundation

enum TodoApi {
    case list(page: Int)
    case show(id: Int)
    case create(Todo)
    case delete(id: Int)
}

extension TodoApi: Endpoint {
    typealias ClientErrorType = TodoError  // the JSON body the server sends with a 4xx

    var baseUrl: URL { URL(string: "https://api.example.com/v1")! }

    var subpath: String {
        switch self {
        case .list, .create: "todos"
        case .show(let id), .delete(let id): "todos/\(id)"
        }
    }

    var method: HttpMethod {
        switch self {
        case .list, .show: .get
        case .create(let todo): .post(body: .json(todo))
        case .delete: .delete
        }
    }

    var queryParameters: [String: QueryParameterValue] {
        switch self {
        case .list(let page): ["page": .int(page)]
        case .show, .create, .delete: [:]
        }
    }
}
// end snippet
