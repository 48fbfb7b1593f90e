import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The door of a request that asks the server to switch protocols, for the products that speak another protocol over
/// the connection (`CourierWebSocket`), at `package` access.
extension ApiProvider {
    /// Sends `endpoint`'s request over `carrier` alone, as the pipeline sends any other: built by the request builder,
    /// modified by the plugins, prepared (a token), judged (a refresh and a retry after a 401), observed, and timed by
    /// the endpoint's ``Endpoint/timeout``. Neither the mocks nor a cache answer it.
    ///
    /// - Returns: The handle that cancels it.
    /// - Parameter completion: `.success` for a `101 Switching Protocols` (the connection is then `carrier`'s to
    ///   hand over); for any other answer the failure an ordinary request would get (a 4xx with the endpoint's
    ///   ``Endpoint/ClientErrorType`` decoded), and ``ApiError/unexpectedStatusCode(statusCode:)`` for a 2xx, which
    ///   is no switch.
    package func performUpgrade(
        on endpoint: EndpointType,
        over carrier: any Transport,
        completion: @escaping @Sendable (Result<Void, ApiError<EndpointType.ClientErrorType>>) -> Void
    ) -> CancellableRequest {
        let handle = CancellableRequest()
        start(
            endpoint,
            handle: handle,
            transportDeliveryQueue: .global(),
            carriedBy: carrier,
            delivery: .calling { exchange in
                let outcome: TypedResult<EmptyBodyResponse>
                if exchange.error == nil, let status = exchange.head?.statusCode, status == 101 {
                    outcome = .success(EmptyBodyResponse())
                } else {
                    outcome = ResponseDecoder.decode(exchange, as: EmptyBodyResponse.self, endpoint: endpoint).flatMap {
                        _ in
                        .failure(.unexpectedStatusCode(statusCode: exchange.head?.statusCode ?? 0))
                    }
                }
                completion(self.report(outcome, of: exchange, endpoint: endpoint).map { _ in })
            }
        )
        return handle
    }

    /// The metrics and span of a long-lived connection to `endpoint` (a WebSocket), when the provider has a
    /// ``MetricsPlugin`` or a ``TracingPlugin``; `nil` without either.
    package func connectionTelemetry(for endpoint: EndpointType) -> ConnectionTelemetry? {
        let metrics = plugins.lazy.compactMap { $0 as? MetricsPlugin<EndpointType> }.first
        let tracing = plugins.lazy.compactMap { $0 as? TracingPlugin<EndpointType> }.first
        guard metrics != nil || tracing != nil else { return nil }
        return ConnectionTelemetry(
            endpointName: endpoint.telemetryName,
            factory: metrics?.metricsFactory,
            tracer: tracing?.tracer
        )
    }
}
