import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension ApiProvider {
    /// Sends the request for `endpoint` and returns the decoded body or the error.
    ///
    /// Cancelling the awaiting task cancels the request (its connection is closed) and returns
    /// ``ApiError/cancelled`` promptly.
    public func response<ResultType: Decodable>(
        on endpoint: EndpointType,
        decodeBodyTo: ResultType.Type
    ) async -> TypedResult<ResultType> {
        finish(await exchange(for: endpoint), endpoint: endpoint)
    }

    /// Sends the request for an endpoint whose answer has no body of interest; success is ``EmptyBodyResponse``.
    public func response(on endpoint: EndpointType) async -> TypedResult<EmptyBodyResponse> {
        await response(on: endpoint, decodeBodyTo: EmptyBodyResponse.self)
    }

    /// Sends the request and returns the raw body, without decoding.
    public func rawDataResponse(on endpoint: EndpointType) async -> TypedResult<Data> {
        await response(on: endpoint, decodeBodyTo: Data.self)
    }

    /// Sends the request and returns the typed result together with the request as sent, the HTTP response
    /// and the raw body, e.g. to read the body of a 4xx or 5xx answer that ``ApiError`` does not carry.
    public func fullResponse<ResultType: Decodable>(
        on endpoint: EndpointType,
        decodeBodyTo: ResultType.Type
    ) async -> ApiResponse<ResultType, EndpointType.ClientErrorType> {
        fullResponse(of: await exchange(for: endpoint), endpoint: endpoint)
    }

    /// The decoded result (plugins' `didPerformRequest` included) with the request, response and raw body.
    func fullResponse<ResultType: Decodable>(
        of exchange: Exchange,
        endpoint: EndpointType
    ) -> ApiResponse<ResultType, EndpointType.ClientErrorType> {
        ApiResponse(
            result: finish(exchange, endpoint: endpoint),
            request: exchange.request,
            httpUrlResponse: exchange.response as? HTTPURLResponse,
            body: exchange.data
        )
    }

    /// The async side of ``start(_:method:transfer:handle:transportDeliveryQueue:deliver:)``: cancelling the awaiting
    /// task cancels the request.
    func exchange(
        for endpoint: EndpointType,
        method: HttpMethod? = nil,
        transfer: TransferPlan? = nil
    ) async -> Exchange {
        let handle = CancellableRequest()
        return await withTaskCancellationHandler {
            // Unchecked: the run delivers exactly once (`CancellableRequest.finish()` decides which outcome), and
            // a checked continuation costs an allocation per request to check what that already guarantees.
            await withUnsafeContinuation { continuation in
                start(endpoint, method: method, transfer: transfer, handle: handle, delivery: .resuming(continuation))
            }
        } onCancel: {
            handle.cancel()
        }
    }
}
