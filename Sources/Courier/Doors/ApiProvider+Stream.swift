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
    /// The endpoint's ``Endpoint/timeout`` is the longest wait for the head and then between two parts of the body
    /// (a reader that holds the body back does not count); its ``Endpoint/transferTimeout`` bounds the whole
    /// exchange, from sending to the last byte (no limit by default). Cancelling the awaiting task before the head
    /// arrives cancels the request; afterwards, cancelling the task that reads the body, or ending the reading early,
    /// stops it.
    public func stream(
        on endpoint: EndpointType
    ) async -> Result<StreamedResponse<EndpointType.ClientErrorType>, ApiError<EndpointType.ClientErrorType>> {
        await stream(on: endpoint, timeout: nil, headers: [:])
    }

    /// ``stream(on:)`` with an overall timeout of its own, `timeout`, instead of the endpoint's
    /// ``Endpoint/transferTimeout``.
    @available(*, deprecated, message: "Give the endpoint a transferTimeout: one place for a request's overall timeout")
    public func stream(
        on endpoint: EndpointType,
        timeout: Duration?
    ) async -> Result<StreamedResponse<EndpointType.ClientErrorType>, ApiError<EndpointType.ClientErrorType>> {
        await stream(on: endpoint, timeout: timeout, headers: [:])
    }

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
        let plan = plan(for: endpoint, everyStatus: true, requestBody: body)
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

    /// - Parameter timeout: The overall timeout, or `nil` for the endpoint's ``Endpoint/transferTimeout``.
    func stream(
        on endpoint: EndpointType,
        timeout: Duration?,
        headers: [String: String]
    ) async -> Result<StreamedResponse<EndpointType.ClientErrorType>, ApiError<EndpointType.ClientErrorType>> {
        let plan = plan(for: endpoint, timeout: timeout, headers: headers)
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
    private func plan(
        for endpoint: EndpointType,
        timeout: Duration? = nil,
        headers: [String: String] = [:],
        everyStatus: Bool = false,
        requestBody: RequestBodyStream? = nil
    ) -> TransferPlan {
        var plan = TransferPlan(
            destination: .stream(everyStatus: everyStatus),
            progress: nil,
            headers: headers,
            idleTimeout: endpoint.timeout,
            overallTimeout: timeout ?? endpoint.transferTimeout
        )
        plan.requestBody = requestBody
        return plan
    }
}
