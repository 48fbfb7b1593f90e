import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Every way a request can fail, as one named case carrying what is needed to act on it.
///
/// The cases that Microya had keep their exact shapes, so existing `switch` statements compile unchanged.
/// The raw body of a 4xx or 5xx answer is not part of these cases; it is in ``ApiResponse/body`` (from
/// ``ApiProvider/fullResponse(on:decodeBodyTo:)``) and in the `urlSessionResult` that plugins receive.
public enum ApiError<ClientErrorType: Decodable & Sendable>: Error {
    /// The request could not be built (a base URL without scheme or host, a header with CR or LF, an invalid
    /// method token …); nothing was sent. The reason names the offending input.
    case invalidRequest(reason: String)

    /// No HTTP response arrived: no connection, a timeout, the connection closed mid-response, a TLS failure
    /// (``tlsFailure`` tells which).
    case noResponseReceived(error: Error?)

    /// The request was cancelled (by its handle, or by cancelling the task awaiting it) before an answer came.
    case cancelled

    /// The server answered 2xx with an empty body where a value was expected.
    case noDataInResponse(statusCode: Int)

    /// The 2xx body did not decode as the expected type; `error` is the `DecodingError`.
    case responseDataConversionFailed(type: String, error: Error)

    /// The server answered 4xx; `clientError` is its body decoded as `ClientErrorType`, or `nil` when it did
    /// not decode.
    case clientError(statusCode: Int, clientError: ClientErrorType?)

    /// The server answered 5xx.
    case serverError(statusCode: Int)

    /// The server answered with a status outside 2xx, 4xx and 5xx (e.g. an unfollowed 3xx).
    case unexpectedStatusCode(statusCode: Int)

    /// The response was not an HTTP response.
    case unexpectedResponseType(response: URLResponse)

    /// The response body was larger than the endpoint's ``Endpoint/maximumResponseBodySize``; it was not kept.
    case responseBodyTooLarge(limit: Int)

    /// A download could not be written to, or moved into, the file at `url` (a missing directory, a full disk, no
    /// permission); `error` is the file system's. The destination was left as it was.
    case fileError(url: URL, error: Error)

    /// A plugin stopped the request: its ``Plugin/prepare(_:endpoint:)`` threw `error` (or made a header invalid),
    /// or its ``Plugin/process(_:endpoint:)`` answered ``AttemptDecision/fail(_:)`` with it. `plugin` is the
    /// plugin's type name without generic arguments, e.g. `"TokenRefreshPlugin"`.
    case pluginFailed(plugin: String, error: Error)

    /// A mocked provider found no mocked response for the endpoint; `endpoint` names it, e.g. `"TodoApi.list"`.
    case emptyMockedResponse(endpoint: String)

    /// ``emptyMockedResponse(endpoint:)`` without a name, which compares equal to it whatever the endpoint, so that
    /// Microya-style tests written as `XCTAssertEqual(error, .emptyMockedResponse)` keep working; two named ones
    /// are equal only when they name the same endpoint.
    public static var emptyMockedResponse: Self { .emptyMockedResponse(endpoint: "") }
}

extension ApiError: Equatable where ClientErrorType: Equatable {
    /// Two errors are equal when their cases and payloads are; underlying errors compare by domain and code (a
    /// plugin's also by description), conversion failures by type name, responses by URL; an unnamed missing mock
    /// matches any named one.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        switch (lhs, rhs) {
        case (.invalidRequest(let left), .invalidRequest(let right)):
            return left == right
        case (.noResponseReceived(let left), .noResponseReceived(let right)):
            return sameUnderlyingError(left, right)
        case (.pluginFailed(let leftPlugin, let leftError), .pluginFailed(let rightPlugin, let rightError)):
            return leftPlugin == rightPlugin && sameUnderlyingError(leftError, rightError)
                && "\(leftError)" == "\(rightError)"
        case (.fileError(let leftUrl, let leftError), .fileError(let rightUrl, let rightError)):
            return leftUrl == rightUrl && sameUnderlyingError(leftError, rightError)
        case (.cancelled, .cancelled):
            return true
        case (.emptyMockedResponse(let left), .emptyMockedResponse(let right)):
            return left.isEmpty || right.isEmpty || left == right
        case (.noDataInResponse(let left), .noDataInResponse(let right)),
            (.responseBodyTooLarge(let left), .responseBodyTooLarge(let right)),
            (.serverError(let left), .serverError(let right)),
            (.unexpectedStatusCode(let left), .unexpectedStatusCode(let right)):
            return left == right
        case (.responseDataConversionFailed(let leftType, _), .responseDataConversionFailed(let rightType, _)):
            return leftType == rightType
        case (.clientError(let leftStatus, let leftError), .clientError(let rightStatus, let rightError)):
            return leftStatus == rightStatus && leftError == rightError
        case (.unexpectedResponseType(let left), .unexpectedResponseType(let right)):
            return left.url == right.url
        default:
            return false
        }
    }

    private static func sameUnderlyingError(_ left: Error?, _ right: Error?) -> Bool {
        switch (left, right) {
        case (nil, nil): return true
        case (let left?, let right?):
            let (leftError, rightError) = (left as NSError, right as NSError)
            return leftError.domain == rightError.domain && leftError.code == rightError.code
        default: return false
        }
    }
}
