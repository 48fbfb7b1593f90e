import Foundation
import Logging

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The swift-log lines of ``RequestLoggerPlugin`` and ``ResponseLoggerPlugin``: one per sending of a request
/// (`→ GET https://…`) and one per answer (`← 200 OK GET https://… in 35 ms, 1.2 kB`), with secrets hidden and the
/// request's id (and trace id) as metadata so that the two lines of one request can be paired.
struct LogLines: Sendable {
    let logger: Logger
    let redaction: LogRedaction
    let logsBodies: Bool
    let maximumBodyLength: Int

    func logSending(_ request: URLRequest, level: Logger.Level) {
        let method = request.httpMethod ?? "GET"
        let url = redaction.redacted(url: request.url)
        let bodySize = request.httpBody?.count
        var metadata: Logger.Metadata = [
            "method": "\(method)",
            "url": "\(url)",
            "headers": headerMetadata(request.allHTTPHeaderFields ?? [:]),
        ]
        Self.addRequestIds(to: &metadata)
        if let bodySize { metadata["bodyBytes"] = "\(bodySize)" }
        if logsBodies, let body = request.httpBody {
            metadata["body"] = "\(redactedBody(body, contentType: request.value(forHTTPHeaderField: "Content-Type")))"
        }
        let size = bodySize.map { ", \(Self.describeSize($0))" } ?? ""
        logger.log(level: level, "→ \(method) \(url)\(size)", metadata: metadata)
    }

    /// At `info` for 1xx-3xx, `warning` for 4xx, and `error` for 5xx and answers that never came.
    func logAnswer(_ attempt: Attempt) {
        let method = attempt.request.httpMethod ?? "GET"
        let url = redaction.redacted(url: attempt.request.url)
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
            return
        }
        let status = HttpStatus(code: response.statusCode)
        let bytes = attempt.data?.count ?? 0
        metadata["status"] = "\(response.statusCode)"
        metadata["bodyBytes"] = "\(bytes)"
        metadata["headers"] = headerMetadata(HeaderFields.dictionary(of: response))
        if logsBodies, let body = attempt.data {
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
    }

    /// The request's id, which pairs its lines, and its trace's id when a ``TracingPlugin`` traces it.
    private static func addRequestIds(to metadata: inout Logger.Metadata) {
        guard let observation = RequestObservation.current else { return }
        metadata["requestId"] = "\(observation.id)"
        if let traceId = observation.trace?.traceId { metadata["traceId"] = "\(traceId)" }
    }

    private func headerMetadata(_ headers: [String: String]) -> Logger.MetadataValue {
        .dictionary(redaction.redacted(headers: headers).mapValues { .string($0) })
    }

    private func redactedBody(_ body: Data, contentType: String?) -> String {
        redaction.redacted(body: body, contentType: contentType, limit: maximumBodyLength)
    }

    private static func describeSize(_ bytes: Int) -> String {
        switch bytes {
        case ..<1000: "\(bytes) B"
        case ..<1_000_000: String(format: "%.1f kB", Double(bytes) / 1000)
        default: String(format: "%.1f MB", Double(bytes) / 1_000_000)
        }
    }
}
