import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What carries a provider's requests to the server and back: by default ``URLSessionTransport`` on Apple platforms
/// and `CurlTransport` (libcurl) on Linux, or another HTTP client, e.g. AsyncHTTPClient through the
/// `CourierAsyncHTTPClient` product.
///
/// A transport sends the request exactly as given (the pipeline has built it and checked its headers) and reports
/// what came back. For the same failure every transport reports the same error, so that callers get the same
/// ``ApiError`` whatever carries their requests:
/// - `URLError(.cannotConnectToHost)` when the connection is refused;
/// - `URLError(.timedOut)` when the server stays silent past the transport's own idle limit, where it keeps one (the
///   request's `timeoutInterval`; AsyncHTTPClient keeps none); the sending's overall timeout is the pipeline's, kept
///   in front of the transport, which only has to cancel when asked;
/// - `URLError(.cancelled)` when the returned cancel action runs, at once;
/// - `URLError(.networkConnectionLost)` when the connection is reset or closes in the middle of the answer (or
///   `URLError(.unknown)` where the transport gives no more to tell it by, as libcurl sometimes does);
/// - `URLError(.badServerResponse)` when the answer breaks HTTP's grammar or framing (a malformed status line or
///   header, a bad chunk size, repeated `Content-Length`, or one beside `Transfer-Encoding`);
/// - `URLError(.cannotDecodeContentData)` when a body the transport decompresses does not inflate;
/// - the `URLError` codes of ``TlsFailure`` when a TLS handshake fails, one per cause;
/// - ``InvalidRequestError`` when asked for ``TransportOptions/tls`` it cannot apply, before sending anything;
/// - ``ResponseBodyTooLargeError`` when the body (after any decompression) would exceed
///   ``TransportOptions/maximumResponseBodySize``, as soon as that is announced or reached, without keeping the
///   rest.
///
/// A redirect to another origin must not carry `Authorization`, `Proxy-Authorization` or `Cookie`.
///
/// Downloads, streams and progress reports ask two things more through ``TransportOptions``: a
/// ``TransportOptions/responseBodyReceiver`` takes the body part by part instead of the transport collecting it (a
/// transport that cannot stream may still collect the body and answer with it; the receiver then gets it whole at
/// the end), and ``TransportOptions/uploadProgress`` is told how much of the request body has been sent.
///
/// The exchange must not need Swift concurrency's threads to finish:
/// ``ApiProvider/performRequestAndWait(on:decodeBodyTo:)`` may be blocking all of them while it waits. A transport that does not get an `HTTPURLResponse` from Foundation
/// answers with ``TransportResponse/init(url:statusCode:httpVersion:headerFields:body:)``, which makes one only if a
/// plugin or the caller asks for it.
public protocol Transport: Sendable {
    /// Starts `request`; `completion` runs exactly once, with the response and its whole body, or the error.
    /// - Returns: The action that cancels the request: `completion` gets `URLError(.cancelled)` at once, unless it
    ///   has already run.
    func send(
        _ request: URLRequest,
        options: TransportOptions,
        completion: @escaping @Sendable (Result<TransportResponse, any Error>) -> Void
    ) -> @Sendable () -> Void
}

/// How one request is to be carried.
public struct TransportOptions: Sendable {
    /// A file to send as the body, read in chunks, unless the request has a body of its own.
    public var bodyFile: URL?
    /// The most the sending may take, from sending to the last byte of the answer; `nil` for no limit. The pipeline
    /// keeps it in front of the transport, which needs no timer of its own for it: Courier's transports read it only
    /// to tell sendings apart, so a transport called directly, outside a provider, has no overall limit.
    public var timeout: Duration?
    /// The most response body bytes kept.
    public var maximumResponseBodySize: Int
    /// Where the response body goes piece by piece instead of being collected, or `nil` to collect it.
    public var responseBodyReceiver: (any ResponseBodyReceiver)?
    /// Told how many bytes of the request body have been sent so far, and how many there are when that is known;
    /// `nil` when nobody asks.
    public var uploadProgress: (@Sendable (_ sent: Int64, _ expected: Int64?) -> Void)?
    /// The endpoint's TLS options, which replace the transport's own; `nil` for the transport's. A transport that
    /// cannot apply them fails the request with ``InvalidRequestError`` before sending anything.
    public var tls: TlsOptions?
    /// The clock of the request's timers, or `nil` for real time: a provider made with a scheduler passes it here,
    /// so that a ``TestScheduler``'s virtual time times the sending.
    public var scheduler: (any Scheduler)?
    /// A body produced while it is sent, read part by part: only a transport that declares
    /// ``RequestBodyStreaming`` is given one (any other gets the body whole, read first).
    package var requestBody: RequestBodyStream.Reader?
    /// Whether something observes the sending's ``SendingTimings`` (a ``TracingPlugin`` or ``MetricsPlugin``): a
    /// transport that can measure them puts them on ``TransportResponse/timings`` then, and spares the work
    /// otherwise.
    public var measuresTimings = false

    /// Creates options.
    /// - Parameters:
    ///   - bodyFile: A file to send as the body, unless the request has a body of its own.
    ///   - timeout: The most the sending may take (kept by the pipeline), or `nil` for no limit.
    ///   - maximumResponseBodySize: The most response body bytes kept.
    ///   - responseBodyReceiver: Where the body goes part by part, or `nil` to collect it.
    ///   - uploadProgress: Told how much of the request body has been sent, or `nil`.
    ///   - tls: TLS options replacing the transport's, or `nil`.
    ///   - scheduler: The clock of the request's timers, or `nil` for real time.
    public init(
        bodyFile: URL? = nil,
        timeout: Duration? = nil,
        maximumResponseBodySize: Int = .max,
        responseBodyReceiver: (any ResponseBodyReceiver)? = nil,
        uploadProgress: (@Sendable (_ sent: Int64, _ expected: Int64?) -> Void)? = nil,
        tls: TlsOptions? = nil,
        scheduler: (any Scheduler)? = nil
    ) {
        self.scheduler = scheduler
        self.bodyFile = bodyFile
        self.timeout = timeout
        self.maximumResponseBodySize = maximumResponseBodySize
        self.responseBodyReceiver = responseBodyReceiver
        self.uploadProgress = uploadProgress
        self.tls = tls
    }
}

extension TransportOptions {
    /// What runs the request's timers: ``scheduler``, or real time on a global queue.
    public var timer: any Scheduler {
        scheduler ?? DispatchQueueScheduler.realTime
    }
}

/// What a transport received: the response and its whole body (empty when there was none).
public struct TransportResponse: Sendable {
    var head: ResponseHead

    /// The body, after any decompression the transport does.
    public let body: Data

    /// Whether there was a body at all: a mock without one reaches the plugins as `nil`, as in Microya.
    let hasBody: Bool

    /// How long the sending's phases took, when the transport measured them (see
    /// ``TransportOptions/measuresTimings``).
    public var timings: SendingTimings? {
        get { head.timings }
        set { head.timings = newValue }
    }

    /// The response, with its status and headers; one made from parts is made on first use (and `nil` only if
    /// Foundation refuses those parts).
    public var response: HTTPURLResponse? { head.response as? HTTPURLResponse }

    init(head: ResponseHead, body: Data, hasBody: Bool = true) {
        self.head = head
        self.body = body
        self.hasBody = hasBody
    }

    /// Creates a response from one that exists already.
    public init(response: HTTPURLResponse, body: Data) {
        head = ResponseHead(response)
        self.body = body
        hasBody = true
    }

    /// Creates a response from its parts, made into an `HTTPURLResponse` only if something asks for it: a transport
    /// that does not get one from Foundation saves the cost of making it (on Linux, parsing `Content-Type` and more)
    /// whenever only the status and body are used.
    /// - Parameters:
    ///   - url: The URL the answer is for.
    ///   - statusCode: The HTTP status code.
    ///   - httpVersion: E.g. `HTTP/1.1`.
    ///   - headerFields: The header fields, a repeated field's values joined with commas.
    ///   - body: The body, after any decompression.
    public init(url: URL, statusCode: Int, httpVersion: String, headerFields: [String: String], body: Data) {
        head = ResponseHead(url: url, statusCode: statusCode, httpVersion: httpVersion, headerFields: headerFields)
        self.body = body
        hasBody = true
    }

    /// A response whose header fields stay as the transport holds them until something asks for them.
    package init(url: URL, statusCode: Int, httpVersion: String, fields: some HeaderFieldSource, body: Data) {
        head = ResponseHead(url: url, statusCode: statusCode, httpVersion: httpVersion, headerFields: fields)
        self.body = body
        hasBody = true
    }
}

/// A response body larger than a transport was allowed to keep; the pipeline reports it as
/// ``ApiError/responseBodyTooLarge(limit:)``.
public struct ResponseBodyTooLargeError: Error, CustomStringConvertible {
    /// The limit, in bytes.
    public let limit: Int

    /// Creates the error.
    public init(limit: Int) {
        self.limit = limit
    }

    public var description: String { "The response body is larger than \(limit) bytes" }
}
