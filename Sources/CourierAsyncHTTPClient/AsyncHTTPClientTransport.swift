#if AsyncHTTPClient
import AsyncHTTPClient
import Courier
import CourierNIO
import Foundation
import NIOCore
import NIOHTTP1
import NIOSSL

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Sends Courier requests over swift-server/async-http-client: the transport for servers and for many requests at
/// once on Linux, where it carries several times the requests per second of URLSession.
///
/// The connection pool, connect timeout, redirects and decompression are the `HTTPClient`'s configuration (Courier's
/// own clients follow at most 16 redirects, as the other transports do); the transport adds what the `Transport`
/// contract asks: the response size limit (at most 4 GiB, what a `ByteBuffer` can hold), cancellation that answers at once,
/// and URLSession's error codes for the same failures.
/// AsyncHTTPClient drops `Authorization`, `Proxy-Authorization` and `Cookie` on a redirect to another origin.
///
/// Over HTTPS it applies Courier's `TlsOptions` (trust roots, a client identity for mutual TLS, the oldest TLS
/// version), given here for every request or by an endpoint for its own, and speaks HTTP/2 to servers that offer it
/// (with a client configured for `.automatic`, the default), many requests at once on one connection.
///
/// ```swift
/// let client = HTTPClient(configuration: .init(connectionPool: .init(idleTimeout: .seconds(60))))
/// let provider = ApiProvider<TodoApi>(transport: AsyncHTTPClientTransport(client: client))
/// // … and when done with it:
/// try await client.shutdown()
/// ```
public final class AsyncHTTPClientTransport: Transport {
    /// The client that carries the requests; whoever created it shuts it down (`HTTPClient.shared`, and the client of
    /// a transport made with ``init(tls:)``, never need to be, and the latter must not be).
    public let client: HTTPClient
    /// The TLS options of every request whose endpoint gives none, or `nil` for the client's own TLS configuration.
    public let tls: TlsOptions?

    /// How ``tls`` is applied: by the client itself, or to each request.
    private let ownTls: OwnTls
    /// The transport as refusals name it.
    private static let name = "AsyncHTTPClientTransport"

    private let tlsConfigurations = TlsConfigurations(sender: AsyncHTTPClientTransport.name)

    private enum OwnTls: Sendable {
        case byClient
        case perRequest(Result<TLSConfiguration, InvalidRequestError>)
    }

    /// Creates a transport over one of Courier's process-wide clients: AsyncHTTPClient's shared configuration
    /// (`HTTPClient.shared`'s), except that the client makes no spans of its own, so that Courier's `TracingPlugin`
    /// is the only one to trace the requests, and that a connection that cannot be made (refused, or a TLS failure)
    /// fails the request at once instead of being tried again until the connect timeout.
    ///
    /// Every transport made this way with the same `tls` shares a client for the life of the process: never shut
    /// down its ``client``. Given options are that client's own TLS configuration, which costs less per request than
    /// a configuration given with each (the client files every request under its TLS configuration).
    /// - Parameter tls: The TLS options of every request whose endpoint gives none, or `nil` for the system's
    ///   defaults.
    public convenience init(tls: TlsOptions? = nil) {
        guard let tls else {
            self.init(client: SharedClients.plain, tls: nil, ownTls: .byClient)
            return
        }
        let configuration = TlsConfigurations.made(for: tls, sender: Self.name)
        if case .success(let made) = configuration, let client = SharedClients.client(for: tls, configuration: made) {
            self.init(client: client, tls: tls, ownTls: .byClient)
        } else {
            self.init(client: SharedClients.plain, tls: tls, ownTls: .perRequest(configuration))
        }
    }

    /// Creates a transport over `client`; whoever created it shuts it down.
    ///
    /// A client whose configuration has a tracer (`HTTPClient.shared` has the one bootstrapped before its first use)
    /// makes a span of its own for each sending, outside the request's trace: when Courier's `TracingPlugin` traces
    /// the requests, set `configuration.tracing.tracer = nil`. A client tries a connection that cannot be made
    /// again until its connect timeout (10 seconds by default), so that a TLS failure is reported only then: set
    /// `configuration.connectionPool.retryConnectionEstablishment = false` to have it at once.
    /// - Parameters:
    ///   - client: The client that carries the requests.
    ///   - tls: The TLS options of every request whose endpoint gives none, or `nil` for the client's own TLS
    ///     configuration. Given options replace the client's TLS configuration for those requests.
    public convenience init(client: HTTPClient, tls: TlsOptions? = nil) {
        self.init(
            client: client,
            tls: tls,
            ownTls: tls.map { OwnTls.perRequest(TlsConfigurations.made(for: $0, sender: Self.name)) } ?? .byClient
        )
    }

    private init(client: HTTPClient, tls: TlsOptions?, ownTls: OwnTls) {
        self.client = client
        self.tls = tls
        self.ownTls = ownTls
    }

    /// Starts `request` on the client's event loops; `completion` runs once, on an event loop or the cancelling
    /// thread.
    ///
    /// Nothing here runs on Swift concurrency's threads: the client's future-based door answers from the event loop
    /// that read the response, and a file body is read on a Dispatch queue. (A body produced while it is sent is
    /// read in a task, see `ProducedBody`: only an `async` door sends one.) A caller blocking every thread of that
    /// pool (`ApiProvider.performRequestAndWait(on:decodeBodyTo:)` inside tasks) cannot starve its own request,
    /// and no task is started and hopped to per request.
    public func send(
        _ request: URLRequest,
        options: TransportOptions,
        completion: @escaping @Sendable (Result<TransportResponse, any Error>) -> Void
    ) -> @Sendable () -> Void {
        let limit = options.maximumResponseBodySize
        let outgoing: HTTPClient.Request
        let bodyEnd: RequestBodyEnd?
        let produced = options.requestBody.map(ProducedBody.init)
        // Whatever way the exchange ends, a producer is not read on.
        var completion = completion
        if let produced {
            completion = { [completion] answer in
                produced.stop()
                completion(answer)
            }
        }
        do {
            let (clientRequest, streamedBodyEnd) = try clientRequest(
                for: request,
                bodyFile: options.bodyFile,
                produced: produced,
                reportingUpload: options.uploadProgress != nil
            )
            var built = clientRequest
            if let endpointTls = options.tls, endpointTls != tls {
                built.tlsConfiguration = try tlsConfigurations.configuration(for: endpointTls).get()
            } else if case .perRequest(let configuration) = ownTls {
                built.tlsConfiguration = try configuration.get()
            }
            outgoing = built
            bodyEnd = streamedBodyEnd
        } catch {
            completion(.failure(TransportErrors.urlError(for: error, limit: limit)))
            return {}
        }
        guard options.responseBodyReceiver == nil, options.uploadProgress == nil else {
            return stream(outgoing, bodyEnd: bodyEnd, of: request, options: options, completion: completion)
        }
        let collecting = CollectingDelegate(
            url: outgoing.url,
            method: outgoing.method,
            limit: limit,
            bodyEnd: bodyEnd,
            completion: completion
        )
        let task = client.execute(request: outgoing, delegate: collecting, eventLoop: preference(for: bodyEnd))
        collecting.started(task)
        task.futureResult.whenComplete { collecting.complete($0) }
        return { collecting.cancel() }
    }
}

/// Sends a body as it is produced, pausing the producer while the connection cannot take more.
extension AsyncHTTPClientTransport: RequestBodyStreaming {}
#endif
