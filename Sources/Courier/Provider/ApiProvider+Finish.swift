import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The two ends of the pipeline that the doors share: the `async` doors' way in, and the decoding and the plugins'
/// `didPerformRequest` on the way out.
extension ApiProvider {
    /// Decodes the exchange on the caller's side and lets every plugin see the outcome.
    func finish<ResultType: Decodable>(
        _ exchange: Exchange,
        endpoint: EndpointType
    ) -> TypedResult<ResultType> {
        let typedResult = ResponseDecoder.decode(exchange, as: ResultType.self, endpoint: endpoint)
        guard !plugins.isEmpty else { return typedResult }
        let urlSessionResult: URLSessionResult = (exchange.data, exchange.response, exchange.error)
        exchange.observation.bound {
            for plugin in plugins {
                plugin.didPerformRequest(
                    urlSessionResult: urlSessionResult,
                    typedResult: typedResult,
                    endpoint: endpoint
                )
            }
        }
        exchange.observation?.ended(with: typedResult, exchange: exchange)
        return typedResult
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
