import Foundation
import Logging

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Logs every answer: the raw result of each request (data, response, error) to a closure before the caller gets
/// it (Microya's form), or a line per answer through apple/swift-log with secrets hidden.
///
/// The swift-log line (`← 200 OK GET https://… in 35 ms, 1.2 kB`) is at `info` for 1xx-3xx, `warning` for 4xx,
/// and `error` for 5xx and answers that never came (timeouts, lost connections); it carries the status, duration
/// in milliseconds, body size, attempt number and headers, and the request's `requestId` (and `traceId`), which
/// pair it with the ``RequestLoggerPlugin``'s line. Each answer is logged, a retried one too. Credentials and
/// whatever the ``LogRedaction`` names are replaced by `REDACTED`.
public final class ResponseLoggerPlugin<EndpointType: Endpoint>: Plugin<EndpointType>, RequestObserver,
    @unchecked Sendable
{
    /// The closure gets the request's result in `didPerformRequest`; the swift-log line is written in `process`,
    /// once per answer.
    override public var implementedHooks: PluginHooks { lines == nil ? [.didPerformRequest] : [.process] }

    private let logClosure: (@Sendable (ApiProvider<EndpointType>.URLSessionResult) -> Void)?
    private let lines: LogLines?

    /// Creates the plugin with the closure that receives each raw result.
    public init(logClosure: @escaping @Sendable (ApiProvider<EndpointType>.URLSessionResult) -> Void) {
        self.logClosure = logClosure
        lines = nil
    }

    /// Creates the plugin logging one line per answer to `logger`.
    /// - Parameters:
    ///   - logger: Where the lines go.
    ///   - redaction: What is hidden beyond credentials.
    ///   - logsBodies: Whether the answer's body is logged (as metadata `body`).
    ///   - maximumBodyLength: How many characters of a body are logged.
    public init(
        logger: Logger,
        redaction: LogRedaction = LogRedaction(),
        logsBodies: Bool = false,
        maximumBodyLength: Int = 1024
    ) {
        logClosure = nil
        lines = LogLines(
            logger: logger,
            redaction: redaction,
            logsBodies: logsBodies,
            maximumBodyLength: maximumBodyLength
        )
    }

    /// The swift-log form reads the request's id and trace id, and nothing else of the observation.
    var isObserving: Bool { lines != nil }
    var namesRequests: Bool { false }

    override public func process(_ attempt: Attempt, endpoint: EndpointType) async -> AttemptDecision {
        lines?.logAnswer(attempt)
        return .proceed
    }

    override public func didPerformRequest<ResultType: Decodable>(
        urlSessionResult: ApiProvider<EndpointType>.URLSessionResult,
        typedResult: ApiProvider<EndpointType>.TypedResult<ResultType>,
        endpoint: EndpointType
    ) {
        logClosure?(urlSessionResult)
    }
}
