import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Sends requests through a `URLSession` of its own: the default ``Transport`` on Apple platforms, and on Linux the
/// one a provider made with a session configuration uses.
///
/// The session is created from the configuration given (by default a fresh `.ephemeral` one, so two providers
/// never share cookies, credentials or a cache) and is invalidated with the transport. Its delegate,
/// `URLSessionTransportDelegate`, is where Courier corrects what URLSession gets wrong for an API client:
/// credentials carried across hosts on redirects, 401 answers that never complete on Linux, timeouts in whole
/// seconds of idle time, and bodies without a size limit.
///
/// On Linux, URLSession (FoundationNetworking) runs all libcurl work on one serial queue and keeps 6 connections
/// per host by default; a server sending many requests at once is better served by the `CourierAsyncHTTPClient`
/// transport.
///
/// It applies no ``TlsOptions`` but ``TlsOptions/platformDefault``: a request asking for others fails with
/// ``ApiError/invalidRequest(reason:)`` and is not sent. On Linux its TLS failures, which FoundationNetworking
/// reports as `URLError(.unknown)` with libcurl's text, are told apart from that text as ``TlsFailure``s.
public final class URLSessionTransport: Transport {
    private let session: URLSession
    private let delegate = URLSessionTransportDelegate()

    /// Creates a transport with a session of its own.
    /// - Parameters:
    ///   - configuration: The session's configuration; a fresh `.ephemeral` one keeps cookies, credentials and
    ///     cache in memory and to this transport alone.
    ///   - maximumConnectionsPerHost: Overrides the configuration's `httpMaximumConnectionsPerHost` (6 by default
    ///     on Linux); `nil` keeps it.
    public init(configuration: URLSessionConfiguration = .ephemeral, maximumConnectionsPerHost: Int? = nil) {
        if let maximumConnectionsPerHost {
            configuration.httpMaximumConnectionsPerHost = maximumConnectionsPerHost
        }
        let delegateQueue = OperationQueue()
        delegateQueue.maxConcurrentOperationCount = 1
        delegateQueue.name = "Courier.URLSessionTransport"
        session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: delegateQueue)
    }

    deinit {
        session.finishTasksAndInvalidate()
    }

    /// Starts `request`; `completion` runs once: on the session's serial delegate queue, or on the cancelling
    /// thread. It must not block: everything else this session
    /// delivers waits behind it.
    ///
    /// A ``TransportOptions/bodyFile`` goes out through an upload task with its `Content-Length`; a body stream
    /// would go chunked, and on Linux a `Content-Length` set by hand next to a stream is sent together with
    /// `Transfer-Encoding: chunked`, which servers must reject. FoundationNetworking truncates `timeoutInterval` to
    /// whole seconds and only measures idle time: the endpoint's timeout, to the millisecond and against a server
    /// that drips its body, is the pipeline's.
    public func send(
        _ request: URLRequest,
        options: TransportOptions,
        completion: @escaping @Sendable (Result<TransportResponse, any Error>) -> Void
    ) -> @Sendable () -> Void {
        if let tls = options.tls, tls != .platformDefault {
            completion(.failure(InvalidRequestError(reason: Self.unsupportedTlsOptions)))
            return {}
        }
        let task: URLSessionTask
        if let bodyFile = options.bodyFile, request.httpBody == nil, request.httpBodyStream == nil {
            task = session.uploadTask(with: request, fromFile: bodyFile)
        } else {
            task = session.dataTask(with: request)
        }
        delegate.register(task, options: options) { data, response, error in
            if let error {
                let classified = MalformedResponse.classifyingLibcurlError(TlsFailure.classifyingLibcurlError(error))
                return completion(.failure(classified))
            }
            guard let response = response as? HTTPURLResponse else {
                return completion(.failure(URLError(.badServerResponse)))
            }
            completion(.success(TransportResponse(response: response, body: data ?? Data())))
        }
        task.resume()
        let delegate = delegate
        // The cancel action names the task by its identifier: a task holds its session, and a cancel action that
        // held the task would keep a finished request, and a released transport's session with its connections,
        // alive as long as the caller keeps the action.
        let identifier = task.taskIdentifier
        // Delivered at once: the session's own cancellation can take seconds to come back.
        return { delegate.stop(taskIdentifier: identifier, because: URLError(.cancelled)) }
    }

    static let unsupportedTlsOptions =
        "URLSessionTransport applies only the platform's TLS defaults (the system's trust store, no client "
        + "certificate, the platform's minimum version, no pinned keys), and this request asks for other TLS "
        + "options; send it with AsyncHTTPClientTransport or CurlTransport, which apply them"
}
