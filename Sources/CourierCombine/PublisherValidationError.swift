#if Combine
import Courier
import Foundation

/// Why `validateStatusCode(in:)` or `hasContentType(_:)` failed a stream: what was expected and what came.
public enum PublisherValidationError: Error, Equatable, Sendable {
    /// The answer's status is not among those expected, e.g. `expected: "200..<300"`.
    case unexpectedStatusCode(Int, expected: String)
    /// The answer's `Content-Type` (`nil` when it had none) is not the media type expected.
    case unexpectedContentType(String?, expected: String)
}

extension PublisherValidationError: LocalizedError {
    /// A sentence for people: what came, and what was expected.
    public var errorDescription: String? {
        switch self {
        case .unexpectedStatusCode(let statusCode, let expected):
            let status = HttpStatus(statusCode: statusCode)
            return "The server answered \(status), where a status in \(expected) was expected."
        case .unexpectedContentType(let contentType?, let expected):
            return "The answer's Content-Type is \"\(contentType)\", where \"\(expected)\" was expected."
        case .unexpectedContentType(nil, let expected):
            return "The answer has a body but no Content-Type, where \"\(expected)\" was expected."
        }
    }
}

extension PublisherValidationError: CustomStringConvertible, CustomDebugStringConvertible {
    /// The case and its details, e.g. `PublisherValidationError.unexpectedStatusCode(404, expected: "200..<300")`.
    public var description: String {
        switch self {
        case .unexpectedStatusCode(let statusCode, let expected):
            "PublisherValidationError.unexpectedStatusCode(\(statusCode), expected: \(String(reflecting: expected)))"
        case .unexpectedContentType(let contentType, let expected):
            "PublisherValidationError.unexpectedContentType(\(contentType.map { String(reflecting: $0) } ?? "nil"), "
                + "expected: \(String(reflecting: expected)))"
        }
    }

    public var debugDescription: String { description }
}
#endif
