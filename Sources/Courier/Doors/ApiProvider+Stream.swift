import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension ApiProvider {
    /// Sends the request for `endpoint` and returns as soon as the status and headers have arrived, with the body
    /// to read as it arrives: for answers too large to hold, or that never end (a log tail, newline-delimited JSON,
    /// Server-Sent Events).
    ///
    /// An answer that is not 2xx is read whole (up to the endpoint's ``Endpoint/maximumResponseBodySize``) and
    /// fails with the same ``ApiError`` as ``response(on:decodeBodyTo:)`` gives, its body decoded as the client
    /// error. The plugins see the request as for any other; their `process` judges the answer at its head (so a
    /// retry or a token refresh happens before the first byte of a 2xx body is handed over), and their
    /// `didPerformRequest` gets no body for a 2xx answer.
    ///
    /// The endpoint's ``Endpoint/idleTimeout`` is the longest wait for the head and then between two parts of the
    /// body (a reader that holds the body back does not count); its ``Endpoint/timeout`` bounds the whole sending,
    /// from sending to the last byte (no limit by default). Cancelling the awaiting task before the head
    /// arrives cancels the request; afterwards, cancelling the task that reads the body, or ending the reading early,
    /// stops it.
    public func stream(
        on endpoint: EndpointType
    ) async -> Result<StreamedResponse<EndpointType.ClientErrorType>, ApiError<EndpointType.ClientErrorType>> {
        await stream(on: endpoint, headers: [:])
    }

    /// ``stream(on:)`` with header fields of its own added to the request (a Server-Sent Events reconnection's).
    func stream(
        on endpoint: EndpointType,
        headers: [String: String]
    ) async -> Result<StreamedResponse<EndpointType.ClientErrorType>, ApiError<EndpointType.ClientErrorType>> {
        let plan = streamPlan(for: endpoint, headers: headers)
        let exchange = await exchange(for: endpoint, transfer: plan)
        let result = finish(exchange, endpoint: endpoint) as TypedResult<EmptyBodyResponse>
        if case .failure(let failure) = result {
            exchange.receiver?.discard()
            return .failure(failure)
        }
        guard let buffer = exchange.receiver?.stream, let response = exchange.response as? HTTPURLResponse else {
            exchange.receiver?.discard()
            return .failure(.noResponseReceived(error: exchange.error))
        }
        return .success(
            StreamedResponse(
                response: response,
                chunks: ResponseChunks(reader: StreamReader(buffer: buffer)),
                maximumLineLength: endpoint.maximumResponseBodySize
            )
        )
    }

    /// A stream's plan: the endpoint's timeouts, the body of a 2xx answer (of any, with `everyStatus`) streamed.
    func streamPlan(
        for endpoint: EndpointType,
        headers: [String: String] = [:],
        everyStatus: Bool = false,
        requestBody: RequestBodyStream? = nil
    ) -> TransferPlan {
        var plan = TransferPlan(
            destination: .stream(everyStatus: everyStatus),
            progress: nil,
            headers: headers,
            idleTimeout: endpoint.idleTimeout
        )
        plan.requestBody = requestBody
        return plan
    }
}
