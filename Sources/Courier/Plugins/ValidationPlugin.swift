import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Fails a request whose answer has a status or a content type other than its endpoint expects, before decoding.
///
/// A mismatch ends the request with ``ApiError/pluginFailed(plugin:error:)`` carrying a
/// ``ResponseValidationError`` that says what was expected and what came. The content type matches with or
/// without parameters (`application/json; charset=utf-8` is `application/json`), ignoring case; an answer with
/// neither a body nor a `Content-Type` (a 204, a `HEAD`) is not checked for one.
///
/// ```swift
/// let validation = ValidationPlugin<TodoApi> { endpoint in
///     switch endpoint {
///     case .delete: ResponseExpectation(statusCodes: [204])
///     default: ResponseExpectation(statusCodes: 200..<300, contentType: "application/json")
///     }
/// }
/// ```
public final class ValidationPlugin<EndpointType: Endpoint>: Plugin<EndpointType>, @unchecked Sendable {
    /// It judges answers in `process` alone.
    override public var implementedHooks: PluginHooks { [.process] }

    private let expectation: @Sendable (EndpointType) -> ResponseExpectation?

    /// Creates the plugin with each endpoint's expectation; `nil` leaves an endpoint unchecked.
    public init(expectation: @escaping @Sendable (EndpointType) -> ResponseExpectation?) {
        self.expectation = expectation
    }

    override public func process(_ attempt: Attempt, endpoint: EndpointType) async -> AttemptDecision {
        guard let response = attempt.response, let expected = expectation(endpoint) else { return .proceed }
        if !expected.statusCodes.contains(response.statusCode) {
            return .fail(
                ResponseValidationError(
                    expected: "status \(Self.describe(expected.statusCodes))",
                    received: "status \(HttpStatus(code: response.statusCode))"
                )
            )
        }
        let contentType = response.value(forHTTPHeaderField: "Content-Type")
        guard let expectedType = expected.contentType, contentType != nil || attempt.data?.isEmpty == false else {
            return .proceed
        }
        guard let contentType, MediaType.essence(of: contentType) == MediaType.essence(of: expectedType) else {
            return .fail(
                ResponseValidationError(
                    expected: "content type \(expectedType)",
                    received: contentType.map { "content type \($0)" } ?? "no content type"
                )
            )
        }
        return .proceed
    }

    /// The codes as runs, e.g. `200…299, 304`.
    private static func describe(_ codes: Set<Int>) -> String {
        var runs: [ClosedRange<Int>] = []
        for code in codes.sorted() {
            if let last = runs.last, last.upperBound + 1 == code {
                runs[runs.count - 1] = last.lowerBound...code
            } else {
                runs.append(code...code)
            }
        }
        return runs.map { $0.count == 1 ? "\($0.lowerBound)" : "\($0.lowerBound)…\($0.upperBound)" }
            .joined(separator: ", ")
    }
}

/// What an endpoint's answer must be, for ``ValidationPlugin``.
public struct ResponseExpectation: Sendable {
    /// The accepted statuses.
    public var statusCodes: Set<Int>

    /// The accepted media type, e.g. `application/json`, or `nil` for any.
    public var contentType: String?

    /// Creates an expectation; by default any 2xx status and any content type.
    public init(statusCodes: some Sequence<Int> = 200..<300, contentType: String? = nil) {
        self.statusCodes = Set(statusCodes)
        self.contentType = contentType
    }
}

/// An answer that was not what its endpoint expected; see ``ValidationPlugin``.
public struct ResponseValidationError: LocalizedError, Sendable, Equatable {
    /// What was expected, e.g. `content type application/json`.
    public let expected: String
    /// What came, e.g. `content type text/html; charset=utf-8`.
    public let received: String

    public var errorDescription: String? { "expected \(expected), received \(received)" }
}
