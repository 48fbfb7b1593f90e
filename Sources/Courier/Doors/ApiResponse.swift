import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The typed result of a request together with what was actually sent and received.
///
/// Use it when the body of an error answer matters (a 4xx or 5xx body that is not `ClientErrorType`, a
/// problem report to log) or when response headers are needed; ``ApiError`` keeps Microya's case shapes and so
/// cannot carry them.
public struct ApiResponse<Value, ClientErrorType: Decodable & Sendable> {
    /// The typed result, exactly as the other entry points return it.
    public let result: Result<Value, ApiError<ClientErrorType>>
    /// The request as built and modified by the plugins (the one sent, unless the result says it was refused or
    /// cancelled first), or `nil` when it could not be built.
    public let request: URLRequest?
    /// The HTTP response, or `nil` when none arrived.
    public let httpUrlResponse: HTTPURLResponse?
    /// The raw response body as received, for success and error answers alike; `nil` when none arrived.
    public let body: Data?

    /// The response's status code, or `nil` when no response arrived.
    public var statusCode: Int? { httpUrlResponse?.statusCode }
}

extension ApiResponse: Sendable where Value: Sendable {}
