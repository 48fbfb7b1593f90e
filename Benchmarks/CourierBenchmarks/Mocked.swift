#if AsyncHTTPClient && OpenAPI
import Courier
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The mocked pipeline against the hand-written minimum: build the request, make the response, decode.
enum Mocked {
    static let baseUrl = URL(string: "http://127.0.0.1:8080")!
    static let provider = ApiProvider<BenchApi>(baseUrl: baseUrl, mockingBehavior: MockingBehavior())
    static let decoder = JSONDecoder()

    final class Sink: @unchecked Sendable {
        var succeeded = 0
    }

    static let sink = Sink()

    /// What a hand-written client does for one call: URLComponents → URLRequest with the same headers →
    /// HTTPURLResponse → JSONDecoder.
    static func baseline(_ endpoint: BenchApi) throws {
        guard var components = URLComponents(url: baseUrl, resolvingAgainstBaseURL: false) else {
            throw BenchmarkError.badResponse
        }
        components.path = "/" + endpoint.subpath
        guard let url = components.url else { throw BenchmarkError.badResponse }
        var request = URLRequest(url: url)
        request.httpMethod = "GET"
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        guard
            let requestUrl = request.url,
            let response = HTTPURLResponse(
                url: requestUrl,
                statusCode: 200,
                httpVersion: "HTTP/1.1",
                headerFields: [:]
            ),
            (200..<300).contains(response.statusCode)
        else { throw BenchmarkError.badResponse }
        switch endpoint {
        case .tiny: _ = try decoder.decode(Bodies.Tiny.self, from: Bodies.tiny)
        case .items(let size): _ = try decoder.decode([Item].self, from: Bodies.items(size))
        }
    }

    /// One Courier call through the completion door, answered before `performRequest` returns.
    static func courierCompletion(_ endpoint: BenchApi) {
        switch endpoint {
        case .tiny:
            provider.performRequest(on: endpoint, decodeBodyTo: Bodies.Tiny.self) { result in
                if case .success = result { sink.succeeded += 1 }
            }
        case .items:
            provider.performRequest(on: endpoint, decodeBodyTo: [Item].self) { result in
                if case .success = result { sink.succeeded += 1 }
            }
        }
    }

    /// One Courier call through the `async` door.
    static func courierAsync(_ endpoint: BenchApi) async {
        switch endpoint {
        case .tiny:
            if case .success = await provider.response(on: endpoint, decodeBodyTo: Bodies.Tiny.self) {
                sink.succeeded += 1
            }
        case .items:
            if case .success = await provider.response(on: endpoint, decodeBodyTo: [Item].self) { sink.succeeded += 1 }
        }
    }

    /// `variant` `count` times, for counting instructions and allocations under valgrind.
    static func repeatVariant(_ variant: String, endpoint: BenchApi, count: Int) async throws {
        for _ in 0..<count {
            switch variant {
            case "baseline": try baseline(endpoint)
            case "completion": courierCompletion(endpoint)
            case "observed": Observability.mockedCompletion(endpoint)
            case "plugin": Observability.mockedCompletion(endpoint, setup: .quietPlugin)
            case "every-hook": Observability.mockedCompletion(endpoint, setup: .everyHook)
            case "cache-hit": CacheBench.hitCompletion(endpoint)
            default: await courierAsync(endpoint)
            }
        }
    }
}
#endif
