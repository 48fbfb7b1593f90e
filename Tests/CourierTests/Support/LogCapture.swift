import Foundation
import Logging

/// A swift-log handler that keeps every line with its level and metadata, rendered as text, for assertions.
final class LogCapture: Sendable {
    struct Line: Sendable {
        let level: Logger.Level
        let message: String
        let metadata: [String: String]

        /// The message and every metadata value, as one text to search.
        var everything: String {
            ([message] + metadata.sorted { $0.key < $1.key }.map { "\($0)=\($1)" }).joined(separator: " ")
        }
    }

    private let storage = EventLog<Line>()

    var lines: [Line] { storage.events }

    /// A logger whose lines end up here, at every level.
    func logger(label: String = "courier.test") -> Logger {
        var logger = Logger(label: label) { _ in Handler(capture: self) }
        logger.logLevel = .trace
        return logger
    }

    fileprivate func append(_ line: Line) {
        storage.append(line)
    }

    private struct Handler: LogHandler {
        let capture: LogCapture
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            let merged = metadata.merging(event.metadata ?? [:]) { $1 }
            capture.append(
                Line(level: event.level, message: "\(event.message)", metadata: merged.mapValues { "\($0)" })
            )
        }
    }
}
