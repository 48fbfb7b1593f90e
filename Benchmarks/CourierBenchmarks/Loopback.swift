#if AsyncHTTPClient && OpenAPI
import AsyncHTTPClient
import Courier
import CourierAsyncHTTPClient
import Foundation
import NIOCore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The four clients measured against the loopback server, each decoding the same 1 KB JSON list.
enum Loopback {
    enum Client: String, CaseIterable {
        case rawUrlSession = "URLSession data(for:)"
        case courierUrlSession = "Courier over URLSession"
        case rawAsyncHttpClient = "AsyncHTTPClient execute"
        case courierAsyncHttpClient = "Courier over AsyncHTTPClient"
    }

    /// The operation one client repeats: one request for `/items/1k`, decoded.
    static func request(
        _ client: Client,
        port: Int,
        httpClient: HTTPClient,
        size: BodySize = .oneKilobyte
    ) -> @Sendable () async -> Bool {
        let baseUrl = URL(string: "http://127.0.0.1:\(port)")!
        let url = baseUrl.appendingPathComponent("items/\(size.rawValue)")
        let decoder = JSONDecoder()
        switch client {
        case .rawUrlSession:
            let session = URLSession(configuration: .ephemeral)
            var request = URLRequest(url: url)
            request.setValue("application/json", forHTTPHeaderField: "Accept")
            let fixed = request
            return {
                guard let (data, response) = try? await session.data(for: fixed),
                    (response as? HTTPURLResponse)?.statusCode == 200
                else { return false }
                return (try? decoder.decode([Item].self, from: data)) != nil
            }
        case .courierUrlSession:
            let provider = ApiProvider<BenchApi>(baseUrl: baseUrl, transport: URLSessionTransport())
            return { (try? await provider.response(on: .items(size: size), decodeBodyTo: [Item].self).get()) != nil }
        case .rawAsyncHttpClient:
            return rawAsyncHttpClient(url: url, httpClient: httpClient)
        case .courierAsyncHttpClient:
            let provider = ApiProvider<BenchApi>(
                baseUrl: baseUrl,
                transport: AsyncHTTPClientTransport(client: httpClient)
            )
            return { (try? await provider.response(on: .items(size: size), decodeBodyTo: [Item].self).get()) != nil }
        }
    }

    /// AsyncHTTPClient alone: one request for `url`, its body collected and decoded as a list of items.
    static func rawAsyncHttpClient(url: URL, httpClient: HTTPClient) -> @Sendable () async -> Bool {
        let decoder = JSONDecoder()
        return {
            var request = HTTPClientRequest(url: url.absoluteString)
            request.headers.add(name: "Accept", value: "application/json")
            guard let response = try? await httpClient.execute(request, deadline: .distantFuture),
                response.status == .ok,
                let body = try? await response.body.collect(upTo: 16 << 20)
            else { return false }
            return (try? decoder.decode([Item].self, from: Data(body.readableBytesView))) != nil
        }
    }
}
#endif
