#if OpenAPI
import Courier
import Foundation
import HTTPTypes
import OpenAPIRuntime

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A provider of ``OpenAPIOperation``s is the transport of a generated client: every call goes through its plugins,
/// retries, metrics and tracing, its mocks, and its transport (see Courier's article *Generated OpenAPI clients*).
///
/// Every answer goes back to the generated code, whatever its status: a 404 is one of the operation's responses,
/// not an error. Only a call that got no answer throws, and what it throws is an `ApiError<Never>` (the generated
/// client's `ClientError.underlyingError`). The response body is handed over part by part as it arrives, and is
/// never held or limited by the provider: the generated code collects it with its own limit, or reads it as it
/// comes.
extension ApiProvider: ClientTransport where EndpointType == OpenAPIOperation {
    public func send(
        _ request: HTTPRequest,
        body: HTTPBody?,
        baseURL: URL,
        operationID: String
    ) async throws -> (HTTPResponse, HTTPBody?) {
        let operation = OpenAPIOperation(operationID: operationID, request: request, body: body, serverURL: baseURL)
        let answer = try await rawExchange(on: operation, body: body.map(RequestBodyStream.init)).get()
        // Only a mock can answer with a status that is not three digits, which `HTTPResponse` cannot hold.
        guard (100...999).contains(answer.statusCode) else {
            throw ApiError<Never>.unexpectedStatusCode(statusCode: answer.statusCode)
        }
        let response = HTTPResponse(statusCode: answer.statusCode, headerFields: answer.headerFields)
        // No body by HTTP's rules: the generated code expects none.
        let status = response.status.code
        if request.method == .head || status == 204 || status == 304 || (100..<200).contains(status) {
            return (response, nil)
        }
        let chunks = answer.chunks.map { ArraySlice($0) }
        return (response, HTTPBody(chunks, length: .unknown, iterationBehavior: .single))
    }
}

extension HTTPResponse {
    /// A response of `statusCode` with `headerFields` (a field a transport received in several lines arrives joined).
    init(statusCode: Int, headerFields: [String: String]) {
        var fields = HTTPFields()
        fields.reserveCapacity(headerFields.count)
        for (name, value) in headerFields {
            guard let name = HTTPField.Name(name) else { continue }
            fields.append(HTTPField(name: name, value: value))
        }
        self.init(status: .init(code: statusCode), headerFields: fields)
    }
}

extension RequestBodyStream {
    /// The generated code's body, read part by part as the transport takes them; one that can be iterated only
    /// once is kept for a replay up to ``OpenAPIOperation/replayLimit``.
    init(_ body: HTTPBody) {
        var length: Int64?
        if case .known(let known) = body.length { length = known }
        self.init(
            length: length,
            iteration: body.iterationBehavior == .single ? .once : .repeatable,
            replayLimit: OpenAPIOperation.replayLimit
        ) {
            let parts = BodyParts(body)
            return { try await parts.next() }
        }
    }
}

/// One iteration of a generated code's body, pulled a part at a time: the body is never read ahead of the
/// connection.
///
/// Unchecked: the iterator is not `Sendable`, and one `RequestBodyStream.Reader` pulls from it, awaiting each part
/// before it asks for the next. (An actor would need `next(isolation:)`, which Apple platforms have only from
/// macOS 15 and iOS 18.)
private final class BodyParts: @unchecked Sendable {
    private var iterator: HTTPBody.AsyncIterator

    init(_ body: HTTPBody) {
        iterator = body.makeAsyncIterator()
    }

    func next() async throws -> Data? {
        try await iterator.next().map { Data($0) }
    }
}
#endif
