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
    /// `/slow`: answers after `milliseconds`; only for requests that are cancelled long before.
    case slow(milliseconds: Int)
    case drop
    case challenge
    case redirect(to: String, status: Int = 302, headers: [String: String]? = nil)
    case setCookie(name: String, value: String)
    case flaky(key: String, failures: Int, status: Int = 503, retryAfter: String? = nil, method: HttpMethod = .get)
    case flakyWithDate(key: String, failures: Int, retryAfterSeconds: Int)
    case protected(accept: String)
    case typed(contentType: String)
    case hold(id: String)
    /// `/silent/{id}`: never answers while a test runs, so only `timeout` ends the request; the server sees it leave.
    case silent(id: String, timeout: Duration? = nil)
    case gzipZeros(count: Int)

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
        case .flaky(let key, _, _, _, _), .flakyWithDate(let key, _, _): "flaky/\(key)"
        case .protected: "protected"
        case .typed: "typed"
        case .hold(let id): "hold/\(id)"
        case .silent(let id, _): "silent/\(id)"
        case .gzipZeros: "gzip-zeros"
        }
    }

    var method: HttpMethod {
        switch self {
        case .echo(let method, _, _, _), .flaky(_, _, _, _, let method): method
        default: .get
        }
    }

    var queryParameters: [String: QueryParameterValue] {
        switch self {
        case .echo(_, _, let query, _): query
        case .slow(let milliseconds): ["ms": .string(String(milliseconds))]
        case .redirect(let target, let status, _): ["to": .string(target), "status": .string(String(status))]
        case .setCookie(let name, let value): [name: .string(value)]
        case .flaky(_, let failures, let status, let retryAfter, _):
            ["failures": .int(failures), "status": .int(status), "retryAfter": retryAfter.map { .string($0) }]
                .compactMapValues { $0 }
        case .flakyWithDate(_, let failures, let seconds):
            ["failures": .int(failures), "status": .int(503), "retryAfterDate": .int(seconds)]
        case .protected(let accept): ["accept": .string(accept)]
        case .typed(let contentType): ["contentType": .string(contentType)]
        case .gzipZeros(let count): ["count": .int(count)]
        default: [:]
        }
    }

    var timeout: Duration? {
        guard case .silent(_, let timeout) = self else { return nil }
        return timeout
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

extension Result where Failure: LocalizedError {
    /// What the failure says about itself to users, or `nil` for a success.
    var failureDescription: String? {
        guard case .failure(let error) = self else { return nil }
        return error.errorDescription
    }
}
