import Courier
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The error body of the test server's `/status/{code}` route.
struct TestError: Decodable, Equatable, Sendable {
    let code: Int
    let message: String
}

/// The test server's routes as an endpoint enum, the way a user declares an API.
enum TestApi: Endpoint {
    typealias ClientErrorType = TestError

    case echo(
        HttpMethod = .get,
        path: String = "",
        query: [String: QueryParameterValue] = [:],
        headers: [String: String]? = nil
    )
    case status(Int)
    case plain(Int)
    case empty(Int)
    case slow(milliseconds: Int)
    case drop
    case challenge
    case redirect(to: String, status: Int = 302, headers: [String: String]? = nil)
    case setCookie(name: String, value: String)

    var baseUrl: URL { URL(string: "http://127.0.0.1:9")! }

    var subpath: String {
        switch self {
        case .echo(_, let path, _, _): "echo/\(path)"
        case .status(let code): "status/\(code)"
        case .plain(let code): "plain/\(code)"
        case .empty(let code): "empty/\(code)"
        case .slow: "slow"
        case .drop: "drop"
        case .challenge: "challenge"
        case .redirect: "redirect"
        case .setCookie: "set-cookie"
        }
    }

    var method: HttpMethod {
        switch self {
        case .echo(let method, _, _, _): method
        default: .get
        }
    }

    var queryParameters: [String: QueryParameterValue] {
        switch self {
        case .echo(_, _, let query, _): query
        case .slow(let milliseconds): ["ms": .string(String(milliseconds))]
        case .redirect(let target, let status, _): ["to": .string(target), "status": .string(String(status))]
        case .setCookie(let name, let value): [name: .string(value)]
        default: [:]
        }
    }

    var headers: [String: String] {
        switch self {
        case .echo(_, _, _, let headers?), .redirect(_, _, let headers?): headers
        default: ["Accept": "application/json", "Content-Type": "application/json"]
        }
    }
}

extension Result where Failure == ApiError<TestError> {
    /// The reason of an `invalidRequest` failure, or `nil` for any other result.
    var invalidRequestReason: String? {
        guard case .failure(.invalidRequest(let reason)) = self else { return nil }
        return reason
    }
}
