import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension ApiProvider {
    /// The `URLRequest` this provider would send for `endpoint`, without sending it: for tests and debugging.
    ///
    /// It is built as for sending (the provider's ``baseUrl``, then every plugin's
    /// ``Plugin/modifyRequest(_:endpoint:)``; neither ``Plugin/willPerformRequest(_:endpoint:)`` nor the `async`
    /// ``Plugin/prepare(_:endpoint:)`` is called), with one
    /// difference: file contents that sending would stream from disk are in the request itself, a
    /// ``HttpBody/file(_:contentType:)`` body as `httpBodyStream` and a multipart body with file parts as
    /// `httpBody`, read whole.
    /// - Returns: The request, or ``ApiError/invalidRequest(reason:)`` saying why it cannot be built.
    public func urlRequest(for endpoint: EndpointType) -> Result<URLRequest, ApiError<EndpointType.ClientErrorType>> {
        prepare(endpoint, purpose: .inspecting)
            .map(\.request)
            .mapError { .invalidRequest(reason: $0.error.reason) }
    }
}
