import AsyncHTTPClient
import Courier
import Foundation
import NIOCore
import NIOHTTP1

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Sends Courier requests over swift-server/async-http-client: the transport for servers and for many requests at
/// once on Linux, where it carries several times the requests per second of URLSession.
///
/// The connection pool, connect timeout, redirects and decompression are the `HTTPClient`'s configuration; the
/// transport adds what the ``Transport`` contract asks: the endpoint's timeout from sending to the last byte, the
/// response size limit, cancellation that answers at once, and URLSession's error codes for the same failures.
/// AsyncHTTPClient drops `Authorization`, `Proxy-Authorization` and `Cookie` on a redirect to another origin.
///
/// ```swift
/// let client = HTTPClient(configuration: .init(connectionPool: .init(idleTimeout: .seconds(60))))
/// let provider = ApiProvider<TodoApi>(transport: AsyncHTTPClientTransport(client: client))
/// // … and when done with it:
/// try await client.shutdown()
/// ```
public final class AsyncHTTPClientTransport: Transport {
    /// The client that carries the requests; whoever created it shuts it down (``HTTPClient/shared`` never needs
    /// to be).
    public let client: HTTPClient

    /// Creates a transport over `client`, by default the process-wide shared one.
    public init(client: HTTPClient = .shared) {
        self.client = client
    }

    public func send(
        _ request: URLRequest,
        options: TransportOptions,
        completion: @escaping @Sendable (Result<TransportResponse, any Error>) -> Void
    ) -> @Sendable () -> Void {
        let outcome = DeliverOnce(completion)
        let client = client
        let operation: @Sendable () async -> Void = {
            do {
                outcome.deliver(.success(try await Self.exchange(request, options: options, client: client)))
            } catch {
                outcome.deliver(.failure(TransportErrors.urlError(for: error, limit: options.maximumResponseBodySize)))
            }
        }
        // Started on the calling thread up to handing the request to the client: no hop to another thread first.
        let task: Task<Void, Never>
        if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) {
            task = Task.immediate(operation: operation)
        } else {
            task = Task(operation: operation)
        }
        if let timeout = options.timeout {
            DispatchQueueScheduler(queue: .global(qos: .userInitiated)).schedule(after: timeout) {
                if outcome.deliver(.failure(URLError(.timedOut))) { task.cancel() }
            }
        }
        return {
            if outcome.deliver(.failure(URLError(.cancelled))) { task.cancel() }
        }
    }

    private static func exchange(
        _ request: URLRequest,
        options: TransportOptions,
        client: HTTPClient
    ) async throws -> TransportResponse {
        guard let url = request.url else { throw URLError(.badURL) }
        var outgoing = HTTPClientRequest(url: url.absoluteString)
        outgoing.method = HTTPMethod(rawValue: request.httpMethod ?? "GET")
        for (name, value) in request.allHTTPHeaderFields ?? [:] {
            outgoing.headers.add(name: name, value: value)
        }
        outgoing.body = try body(of: request, file: options.bodyFile)
        let limit = options.maximumResponseBodySize
        let response = try await client.execute(outgoing, deadline: .distantFuture)
        if let announced = response.headers.first(name: "Content-Length").flatMap(Int.init), announced > limit {
            throw ResponseBodyTooLargeError(limit: limit)
        }
        let body = try await response.body.collect(upTo: limit)
        var fields: [String: String] = [:]
        for (name, value) in response.headers {
            // As URLSession does: repeated fields joined with commas.
            fields[name] = fields[name].map { "\($0), \(value)" } ?? value
        }
        // From parts: an `HTTPURLResponse` is made only if a plugin or the caller asks for one.
        return TransportResponse(
            url: url,
            statusCode: Int(response.status.code),
            httpVersion: "HTTP/\(response.version.major).\(response.version.minor)",
            headerFields: fields,
            body: Data(body.readableBytesView)
        )
    }

    /// The request's own body, or the file streamed in chunks with its length announced.
    private static func body(of request: URLRequest, file: URL?) throws -> HTTPClientRequest.Body? {
        if let data = request.httpBody { return .bytes(ByteBuffer(bytes: data)) }
        if let stream = request.httpBodyStream { return .bytes(ByteBuffer(bytes: try FileChunks.readAll(stream))) }
        guard let file else { return nil }
        let size = try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int ?? 0
        return .stream(FileChunks(url: file), length: .known(Int64(size)))
    }
}
