import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The doors for the package's other products (the Combine publishers), at `package` access: the same pipeline and
/// the same delivery as ``ApiProvider/performRequest(on:decodeBodyTo:completion:)``, on a background queue for an
/// answer from the network, inside the scheduler for a mocked one, and before the call returns for a request that
/// could not be built.
extension ApiProvider {
    /// - Parameter method: Sent instead of the endpoint's own method (a multipart door brings its own body), or `nil`.
    package func performRequest<ResultType: Decodable & SendableMetatype>(
        on endpoint: EndpointType,
        method: HttpMethod?,
        decodeBodyTo: ResultType.Type,
        completion: @escaping @Sendable (TypedResult<ResultType>) -> Void
    ) -> CancellableRequest {
        let handle = CancellableRequest()
        // Off the transport's queue: the caller's code may block (e.g. wait for another request), which must not
        // hold up the deliveries of other requests.
        start(endpoint, method: method, handle: handle, transportDeliveryQueue: .global()) { exchange in
            let result: TypedResult<ResultType> = self.finish(exchange, endpoint: endpoint)
            completion(result)
        }
        return handle
    }

    /// Keeps the answer's response and raw body beside the typed result, for a door that hands out the response
    /// whatever its status.
    package func performFullRequest<ResultType: Decodable & SendableMetatype>(
        on endpoint: EndpointType,
        decodeBodyTo: ResultType.Type,
        completion: @escaping @Sendable (ApiResponse<ResultType, EndpointType.ClientErrorType>) -> Void
    ) -> CancellableRequest {
        let handle = CancellableRequest()
        start(endpoint, handle: handle, transportDeliveryQueue: .global()) { exchange in
            completion(self.fullResponse(of: exchange, endpoint: endpoint))
        }
        return handle
    }
}
