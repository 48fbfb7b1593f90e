import Courier
import CourierTestServer
import CourierTestServerTLS
import Foundation

/// Endpoints of the HTTPS test server; the provider gives the base URL.
enum HttpsApi: Endpoint {
    typealias ClientErrorType = TestError

    case echo(headers: [String: String] = [:])
    /// With TLS options of its own, which replace the transport's.
    case echoWith(tls: TlsOptions)
    case gather(key: String, count: Int)
    case redirect(to: URL, headers: [String: String])
    /// `/hold/{id}`: a body that keeps coming for longer than a test runs; the server tells when the client leaves.
    case hold(id: String, timeout: Duration?)
    case bytes(count: Int, limit: Int)

    var baseUrl: URL { URL(fileURLWithPath: "/") }

    var subpath: String {
        switch self {
        case .echo, .echoWith: "echo"
        case .gather(let key, _): "gather/\(key)"
        case .redirect: "redirect"
        case .hold(let id, _): "hold/\(id)"
        case .bytes: "bytes"
        }
    }

    var method: HttpMethod { .get }

    var headers: [String: String] {
        switch self {
        case .echo(let headers), .redirect(_, let headers): headers
        default: [:]
        }
    }

    var queryParameters: [String: QueryParameterValue] {
        switch self {
        case .gather(_, let count): ["count": .int(count)]
        case .redirect(let target, _): ["to": .string(target.absoluteString)]
        case .bytes(let count, _): ["count": .int(count)]
        default: [:]
        }
    }

    var timeout: Duration? {
        guard case .hold(_, let timeout) = self else { return nil }
        return timeout
    }

    var maximumResponseBodySize: Int {
        guard case .bytes(_, let limit) = self else { return 16 * 1024 * 1024 }
        return limit
    }

    var tls: TlsOptions? {
        guard case .echoWith(let tls) = self else { return nil }
        return tls
    }
}
