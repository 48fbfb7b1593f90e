import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension ApiProvider {
    /// The raw exchange: ``stream(on:)`` for an answer of any status, the seam for clients that judge the
    /// status themselves (code generated from an OpenAPI document decodes a 404 as one of its own responses). The
    /// request goes through the plugins, retries, observation and mocks as any other, and the plugins and the
    /// observation still see a 4xx or 5xx as one; only a request that got no answer (or that a plugin failed) fails.
    /// The answer is its status, its header fields and its body: no `HTTPURLResponse` is made for it.
    ///
    /// - Parameter body: A body produced while it is sent, for an endpoint whose method carries none: sent part by
    ///   part over a transport that streams request bodies (``RequestBodyStreaming``), read whole first over any
    ///   other; each retry reads it again as ``RequestBodyStream`` says.
    package func rawExchange(
        on endpoint: EndpointType,
        body: RequestBodyStream? = nil
    ) async -> Result<RawAnswer<EndpointType.ClientErrorType>, ApiError<EndpointType.ClientErrorType>> {
        if body != nil {
            if endpoint.method.body != nil {
                return .failure(
                    .invalidRequest(
                        reason: "\(endpoint.nameForMessages) has a body of its own and cannot be sent with a streamed "
                            + "one"
                    )
                )
            }
            do throws(InvalidRequestError) {
                try RequestBuilder.refuseBody(on: endpoint.method)
            } catch {
                return .failure(.invalidRequest(reason: error.reason))
            }
        }
        let plan = streamPlan(for: endpoint, everyStatus: true, requestBody: body)
        let exchange = await exchange(for: endpoint, transfer: plan)
        let result = finish(exchange, endpoint: endpoint) as TypedResult<EmptyBodyResponse>
        guard let head = exchange.head, let statusCode = head.statusCode, let buffer = exchange.receiver?.stream else {
            exchange.receiver?.discard()
            if case .failure(let failure) = result { return .failure(failure) }
            return .failure(.noResponseReceived(error: exchange.error))
        }
        if case .failure(let failure) = result, exchange.error != nil {
            exchange.receiver?.discard()
            return .failure(failure)
        }
        return .success(
            RawAnswer(
                statusCode: statusCode,
                headerFields: head.headerFields,
                chunks: ResponseChunks(reader: StreamReader(buffer: buffer))
            )
        )
    }
}
