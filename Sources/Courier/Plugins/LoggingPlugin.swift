import Foundation
import Logging

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Logs one line per sending of a request and one per answer through apple/swift-log, with secrets hidden.
///
/// - The request line (`→ GET https://…`, at ``Configuration/requestLevel``, `debug` by default) carries the
///   method, URL, headers and body size as metadata. It is logged in ``Plugin/prepare(_:endpoint:)``, so put the
///   plugin after those that change the request, to log it as sent.
/// - The answer line (`← 200 OK GET https://… in 35 ms, 1.2 kB`) is at `info` for 1xx-3xx, `warning` for 4xx,
///   and `error` for 5xx and answers that never came (timeouts, lost connections); it carries the status,
///   duration in milliseconds, body size, attempt number and headers.
/// - `Authorization`, `Proxy-Authorization`, `Cookie` and `Set-Cookie` values, a URL's password, and whatever
///   ``LogRedaction`` names (headers, query parameters, JSON fields) are replaced by `REDACTED`.
/// - Both lines carry the request's `requestId` as metadata, the same on every retry, so that the lines of
///   concurrent requests can be paired, and its `traceId` when a ``TracingPlugin`` traces it.
/// - Bodies are not logged unless ``Configuration/logsBodies`` is on; then they are cut after
///   ``Configuration/maximumBodyLength`` characters.
///
/// ```swift
/// let logging = LoggingPlugin<TodoApi>(
///     logger: Logger(label: "todo.api"),
///     configuration: .init(redaction: LogRedaction(queryParameters: ["api_key"], jsonFields: ["password"]))
/// )
/// ```
public final class LoggingPlugin<EndpointType: Endpoint>: Plugin<EndpointType>, RequestObserver, @unchecked Sendable {
    /// It observes, and logs each sending and each answer.
    override var hooks: PluginHooks { [.prepare, .process] }
    /// What is logged, and at which levels.
    public struct Configuration: Sendable {
        /// What is hidden.
        public var redaction: LogRedaction
        /// Whether request and response bodies are logged (as metadata `body`).
        public var logsBodies: Bool
        /// How many characters of a body are logged.
        public var maximumBodyLength: Int
        /// The level of request lines.
        public var requestLevel: Logger.Level

        /// Creates a configuration: nothing extra redacted, no bodies, 1,024 characters, requests at `debug`.
        public init(
            redaction: LogRedaction = LogRedaction(),
            logsBodies: Bool = false,
            maximumBodyLength: Int = 1024,
            requestLevel: Logger.Level = .debug
        ) {
            self.redaction = redaction
            self.logsBodies = logsBodies
            self.maximumBodyLength = maximumBodyLength
            self.requestLevel = requestLevel
        }
    }

    private let logger: Logger
    private let configuration: Configuration

    /// The plugin reads only the request's id and trace id.
    var namesRequests: Bool { false }

    /// Creates the plugin, logging to `logger`.
    public init(logger: Logger, configuration: Configuration = Configuration()) {
        self.logger = logger
        self.configuration = configuration
    }

    override public func prepare(_ request: inout URLRequest, endpoint: EndpointType) async throws {
        let method = request.httpMethod ?? "GET"
        let url = configuration.redaction.redacted(url: request.url)
        let bodySize = request.httpBody?.count
        var metadata: Logger.Metadata = [
            "method": "\(method)",
            "url": "\(url)",
            "headers": headerMetadata(request.allHTTPHeaderFields ?? [:]),
        ]
        Self.addRequestIds(to: &metadata)
        if let bodySize { metadata["bodyBytes"] = "\(bodySize)" }
        if configuration.logsBodies, let body = request.httpBody {
            metadata["body"] = "\(redactedBody(body, contentType: request.value(forHTTPHeaderField: "Content-Type")))"
        }
        let size = bodySize.map { ", \(Self.describeSize($0))" } ?? ""
        logger.log(level: configuration.requestLevel, "→ \(method) \(url)\(size)", metadata: metadata)
    }

    override public func process(_ attempt: Attempt, endpoint: EndpointType) async -> AttemptDecision {
        let method = attempt.request.httpMethod ?? "GET"
        let url = configuration.redaction.redacted(url: attempt.request.url)
        let milliseconds =
            attempt.duration.components.seconds * 1000
            + attempt.duration.components.attoseconds / 1_000_000_000_000_000
        var metadata: Logger.Metadata = [
            "method": "\(method)",
            "url": "\(url)",
            "durationMs": "\(milliseconds)",
            "attempt": "\(attempt.number)",
        ]
        Self.addRequestIds(to: &metadata)
        guard let response = attempt.response else {
            let reason = attempt.error.map { "\($0.localizedDescription)" } ?? "no response"
            metadata["error"] = "\(reason)"
            logger.error("← \(method) \(url) failed after \(milliseconds) ms: \(reason)", metadata: metadata)
            return .proceed
        }
        let status = HttpStatus(code: response.statusCode)
        let bytes = attempt.data?.count ?? 0
        metadata["status"] = "\(response.statusCode)"
        metadata["bodyBytes"] = "\(bytes)"
        let headers = response.allHeaderFields.reduce(into: [String: String]()) { result, header in
            result["\(header.key)"] = "\(header.value)"
        }
        metadata["headers"] = headerMetadata(headers)
        if configuration.logsBodies, let body = attempt.data {
            metadata["body"] = "\(redactedBody(body, contentType: response.value(forHTTPHeaderField: "Content-Type")))"
        }
        let level: Logger.Level =
            switch response.statusCode {
            case 500...: .error
            case 400..<500: .warning
            default: .info
            }
        let line = "← \(status) \(method) \(url) in \(milliseconds) ms, \(Self.describeSize(bytes))"
        logger.log(level: level, "\(line)", metadata: metadata)
        return .proceed
    }

    /// The request's id, which pairs its lines, and its trace's id when a ``TracingPlugin`` traces it.
    private static func addRequestIds(to metadata: inout Logger.Metadata) {
        guard let observation = RequestObservation.current else { return }
        metadata["requestId"] = "\(observation.id)"
        if let traceId = observation.trace?.traceId { metadata["traceId"] = "\(traceId)" }
    }

    private func headerMetadata(_ headers: [String: String]) -> Logger.MetadataValue {
        .dictionary(configuration.redaction.redacted(headers: headers).mapValues { .string($0) })
    }

    private func redactedBody(_ body: Data, contentType: String?) -> String {
        configuration.redaction.redacted(body: body, contentType: contentType, limit: configuration.maximumBodyLength)
    }

    private static func describeSize(_ bytes: Int) -> String {
        switch bytes {
        case ..<1000: "\(bytes) B"
        case ..<1_000_000: String(format: "%.1f kB", Double(bytes) / 1000)
        default: String(format: "%.1f MB", Double(bytes) / 1_000_000)
        }
    }
}
