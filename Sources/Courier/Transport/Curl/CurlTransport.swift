// libcurl's transport: built where the package links libcurl (Linux).
#if canImport(CCourierCurl)
import CCourierCurl
import CLibcurl
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Sends Courier requests with libcurl directly: libcurl multi handles, each on a thread of its own (an *engine*),
/// carry the transport's requests, keeping connections alive and multiplexing requests over HTTP/2 where a server
/// offers it. On Linux it is what `ApiProvider()` sends over, a transport of its own for each provider.
///
/// A transport starts no thread until it sends. Requests one at a time go to its first engine and reuse its
/// connections; when every engine has a request in flight, the next starts another engine, up to `engines` (by
/// default as many as the machine has cores, at most 16), so that a busy provider's libcurl work spreads over the
/// cores. Each engine keeps its own connections; the cookies are the transport's, shared by all of them. An engine
/// with nothing to do sleeps without waking.
///
/// It reports failures as every Courier transport does (the list is on ``Transport``), applies all of
/// ``TlsOptions`` (pinned public keys included), reads TLS failures from OpenSSL's verification result, and lets a
/// slow reader of a download or a stream hold the connection instead of filling memory. It decompresses gzip,
/// deflate and Brotli answers, follows redirects (at most 16: a 303, or a 301 or 302 of a `POST`, as a `GET`
/// without the body; others with the method and body; one to another host, port or scheme does not carry
/// `Authorization` or `Cookie`), and takes proxies from
/// `http_proxy`, `https_proxy` and `no_proxy`. Cookies that answers set are kept in memory for the transport's life
/// and sent where they belong; a request with a `Cookie` field of its own is sent with that alone. A request's
/// `timeoutInterval` is how long the server may leave it without a byte either way, as over URLSession (not while
/// a slow reader or a body's producer holds it).
///
/// ```swift
/// let provider = ApiProvider<TodoApi>(transport: CurlTransport())
/// ```
public final class CurlTransport: Transport {
    /// The TLS options of every request whose endpoint gives none, or `nil` for libcurl's defaults (the system's
    /// trust roots).
    public let tls: TlsOptions?

    /// The most engines (libcurl multi handles, a thread each) the transport spreads its requests over.
    public var engines: Int { pool?.limit ?? 0 }

    private let pool: CurlEngines?

    /// The engines a transport may start unless told otherwise: one per core the process may use, at most 16 (each
    /// engine can carry tens of thousands of requests a second; past that, more threads only cost memory).
    public static var defaultEngines: Int { min(max(ProcessInfo.processInfo.activeProcessorCount, 1), 16) }

    /// Creates a transport with its own connections and engines.
    /// - Parameters:
    ///   - tls: The TLS options of every request whose endpoint gives none, or `nil` for the system's defaults.
    ///   - engines: The most engines to spread requests over, each a thread with its own connections (at least
    ///     one). One keeps every request on one thread and one set of connections.
    public init(tls: TlsOptions? = nil, engines: Int = CurlTransport.defaultEngines) {
        self.tls = tls
        pool = CurlEngines(limit: engines)
    }

    deinit {
        pool?.close()
    }

    /// Whether the transport can send: `false` only when libcurl could not make its first multi handle.
    var isRunning: Bool { pool != nil }

    /// How many of the transport's engines have started their thread.
    var runningEngines: Int { pool?.running ?? 0 }

    /// The libcurl this transport runs on, e.g. "7.88.1".
    public static var libcurlVersion: String { CurlLibrary.version }

    /// Hands `request` to an engine's thread; `completion` runs once, on that thread or the cancelling thread.
    /// Nothing here needs Swift concurrency's threads.
    public func send(
        _ request: URLRequest,
        options: TransportOptions,
        completion: @escaping @Sendable (Result<TransportResponse, any Error>) -> Void
    ) -> @Sendable () -> Void {
        guard let engine = pool?.next() else {
            completion(.failure(URLError(.unknown)))
            return {}
        }
        // Read once: on Linux each read of a request's method makes a new string.
        let method = request.httpMethod ?? "GET"
        guard CurlRedirects.libcurlFollows(method) else {
            return CurlRedirectChain(transport: self, engine: engine, options: options, completion: completion)
                .start(request)
        }
        guard
            let exchange = exchange(
                for: request,
                on: engine,
                method: method,
                options: options,
                libcurlFollowsRedirects: true,
                completion
            )
        else { return {} }
        guard engine.post(.start(exchange)) else {
            exchange.end(with: .failure(URLError(.cancelled)))
            return {}
        }
        // The exchange alone is captured, strongly: such a closure needs no allocation of its own, where a weak
        // capture needs a box and a side table. Once ended, the exchange lets go of the body and fields it collected
        // (`CurlSending.end(with:)`); whoever keeps the action after the end keeps the rest of it.
        return { [exchange] in exchange.cancel() }
    }

    /// An exchange for `request` on `engine`, set up but not started, or `nil` when it failed already (`completion`
    /// has run). It takes over one request of the engine's load (``CurlEngine/reserve()``), given back with its
    /// outcome.
    func exchange(
        for request: URLRequest,
        on engine: CurlEngine,
        method: String,
        options: TransportOptions,
        libcurlFollowsRedirects: Bool,
        _ completion: @escaping @Sendable (Result<TransportResponse, any Error>) -> Void
    ) -> CurlSending? {
        // A request with a `Cookie` field of its own is sent with that alone: libcurl would add a second one. One
        // that asks URLSession's way not to handle cookies (`httpShouldHandleCookies`) neither sends nor keeps any.
        // The fields are read once: on Linux each read of them, or of one of them, searches and copies.
        let fields = request.allHTTPHeaderFields ?? [:]
        let keepsCookies =
            request.httpShouldHandleCookies && engine.cookieShare != nil
            && !fields.keys.contains { HeaderFields.sameName($0, "Cookie") }
        guard let url = request.url, let handle = engine.easyHandle(keepingCookies: keepsCookies) else {
            engine.release()
            completion(.failure(URLError(.unknown)))
            return nil
        }
        let body: CurlRequestBody?
        do {
            body = try CurlSetup.body(of: request, options: options)
        } catch {
            engine.recycle(handle, keepingCookies: keepsCookies, cookieEngineOn: handle.cookieEngineOn)
            engine.release()
            completion(.failure(error))
            return nil
        }
        let exchange = CurlSending(
            handle: handle,
            engine: engine,
            url: url,
            isHead: method == "HEAD",
            keepsCookies: keepsCookies,
            options: options,
            uploadSize: body?.length,
            idleLimit: request.timeoutInterval,
            completion: completion
        )
        exchange.requestBody = body
        exchange.libcurlFollowsRedirects = libcurlFollowsRedirects
        do {
            try CurlSetup.configure(exchange, fields: fields, method: method, tls: options.tls ?? tls)
        } catch {
            exchange.end(with: .failure(error))
            return nil
        }
        return exchange
    }
}

/// A body produced while it is sent goes out part by part, each asked of the producer once libcurl has taken the one
/// before.
extension CurlTransport: RequestBodyStreaming {}
#endif
