import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A made-up answer that a mocked provider returns instead of calling the server: a status with headers and a
/// body, or a transport failure such as being offline.
///
/// Most endpoints build theirs with ``Endpoint/mock(status:bodyJson:headers:)`` or
/// ``Endpoint/mock(status:bodyEncodable:headers:)``; ``transportFailure(_:)`` makes the request fail as if no
/// answer had come.
public struct MockedResponse: Sendable, Hashable {
    /// The HTTP status; 0 for a ``transportFailure(_:)``, as no answer arrived.
    public var status: HttpStatus
    /// The response headers.
    public var headers: [String: String]
    /// The response body, or `nil` for none.
    public var bodyData: Data?
    /// The error the request fails with instead of being answered, or `nil` for an answer.
    ///
    /// Decoded as a live failure would be: ``ApiError/noResponseReceived(error:)``, or ``ApiError/cancelled`` for
    /// `URLError(.cancelled)`.
    public var transportError: URLError?

    /// The subpath of the endpoint the mock was made for (by ``Endpoint/mock(status:bodyJson:headers:)`` or
    /// Microya's initializers), or `""`.
    ///
    /// Kept for code written for Microya, which built the mocked answer's URL from it; Courier's mocked answer has
    /// the full URL of the request instead, query included.
    public var subpath: String = ""

    /// The status code as a number.
    public var statusCode: Int { status.code }

    /// Creates a mocked answer from its parts.
    public init(status: HttpStatus, headers: [String: String] = [:], bodyData: Data? = nil) {
        self.status = status
        self.headers = headers
        self.bodyData = bodyData
    }

    /// Creates a mocked answer whose body is the UTF-8 bytes of `bodyJson`.
    public init(status: HttpStatus, bodyJson: String?, headers: [String: String] = [:]) {
        self.init(status: status, headers: headers, bodyData: bodyJson.map { Data($0.utf8) })
    }

    /// Creates a mocked answer whose body is `bodyEncodable` encoded by `encoder`.
    /// - Throws: The `EncodingError` when the value does not encode.
    public init<Body: Encodable>(
        status: HttpStatus,
        bodyEncodable: Body,
        encoder: JSONEncoder = JSONEncoder(),
        headers: [String: String] = [:]
    ) throws {
        self.init(status: status, headers: headers, bodyData: try encoder.encode(bodyEncodable))
    }

    /// Creates a mocked answer whose body is the UTF-8 bytes of `bodyJson`, in Microya's spelling.
    /// - Parameters:
    ///   - subpath: Kept in ``subpath``; the answer's URL is the request's.
    ///   - statusCode: The HTTP status code.
    ///   - bodyJson: The body as JSON text, or `nil` for none.
    ///   - headers: The response headers.
    public init(subpath: String, statusCode: Int, bodyJson: String? = nil, headers: [String: String] = [:]) {
        self.init(status: HttpStatus(code: statusCode), bodyJson: bodyJson, headers: headers)
        self.subpath = subpath
    }

    /// Creates a mocked answer with `bodyData` as body, in Microya's spelling.
    /// - Parameters:
    ///   - subpath: Kept in ``subpath``; the answer's URL is the request's.
    ///   - statusCode: The HTTP status code.
    ///   - bodyData: The body.
    ///   - headers: The response headers.
    public init(subpath: String, statusCode: Int, bodyData: Data, headers: [String: String] = [:]) {
        self.init(status: HttpStatus(code: statusCode), headers: headers, bodyData: bodyData)
        self.subpath = subpath
    }

    /// A mocked request that fails without an answer, e.g. `URLError(.notConnectedToInternet)` to test offline
    /// handling or `URLError(.timedOut)` to test a timeout.
    public static func transportFailure(_ error: URLError) -> MockedResponse {
        var failure = MockedResponse(status: HttpStatus(code: 0))
        failure.transportError = error
        return failure
    }
}
