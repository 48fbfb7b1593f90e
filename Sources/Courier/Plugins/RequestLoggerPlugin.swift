import Foundation
import Logging

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Logs every request as it is sent: to a closure (Microya's form, e.g. to print it), or as a line through
/// apple/swift-log with secrets hidden.
///
/// The swift-log line (`→ GET https://…`, at `debug` unless you choose) carries the method, URL, headers and body
/// size as metadata, and the request's `requestId`, the same on every retry, so that it pairs with the
/// ``ResponseLoggerPlugin``'s line of its answer (and its `traceId` when a ``TracingPlugin`` traces it). It is
/// logged before each sending, in ``Plugin/prepare(_:endpoint:)``, so put the plugin after those that change the
/// request, to log it as sent. `Authorization`, `Proxy-Authorization`, `Cookie` and `Set-Cookie` values, a URL's
/// password, and whatever the ``LogRedaction`` names are replaced by `REDACTED`.
///
/// ```swift
/// let logger = Logger(label: "todo.api")
/// let redaction = LogRedaction(queryParameters: ["api_key"], jsonFields: ["password"])
/// let plugins: [Plugin<TodoApi>] = [
///     RequestLoggerPlugin(logger: logger, redaction: redaction),
///     ResponseLoggerPlugin(logger: logger, redaction: redaction),
/// ]
/// ```
public final class RequestLoggerPlugin<EndpointType: Endpoint>: Plugin<EndpointType>, RequestObserver,
    @unchecked Sendable
{
    /// The closure gets each request in `willPerformRequest`, once; the swift-log line is written in `prepare`,
    /// once per sending.
    override public var implementedHooks: PluginHooks { lines == nil ? [] : [.prepare] }

    private let logClosure: (@Sendable (URLRequest) -> Void)?
    private let lines: LogLines?
    private let level: Logger.Level

    /// Creates the plugin with the closure that receives each request, once, after every plugin's
    /// ``Plugin/modifyRequest(_:endpoint:)``.
    public init(logClosure: @escaping @Sendable (URLRequest) -> Void) {
        self.logClosure = logClosure
        lines = nil
        level = .debug
    }

    /// Creates the plugin logging one line per sending to `logger`.
    /// - Parameters:
    ///   - logger: Where the lines go.
    ///   - level: The level of the lines; `debug` by default.
    ///   - redaction: What is hidden beyond credentials.
    ///   - logsBodies: Whether the request's body is logged (as metadata `body`).
    ///   - maximumBodyLength: How many characters of a body are logged.
    public init(
        logger: Logger,
        level: Logger.Level = .debug,
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
        self.level = level
    }

    /// The swift-log form reads the request's id and trace id, and nothing else of the observation.
    var isObserving: Bool { lines != nil }
    var namesRequests: Bool { false }

    override public func willPerformRequest(_ request: URLRequest, endpoint: EndpointType) {
        logClosure?(request)
    }

    override public func prepare(_ request: inout URLRequest, endpoint: EndpointType) async throws {
        lines?.logSending(request, level: level)
    }
}
