import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension MockingBehavior {
    /// Answers `request` in place of the network: at once without a delay, else when the scheduler runs it.
    ///
    /// The mocked response is chosen now, so the call numbers follow the order in which requests were sent.
    /// - Parameter startedAt: The scheduler's clock when the request entered the pipeline, or `nil` for now; the
    ///   delay counts from then. If the clock has already passed the due time (a test advanced it while the request
    ///   was on its way), the answer is delivered at once instead of a full delay later.
    /// - Returns: The cancel action; cancelling delivers `URLError(.cancelled)` at once and unschedules the answer.
    func answer(
        _ request: URLRequest,
        for endpoint: EndpointType,
        startedAt: Duration?,
        deliver: @escaping @Sendable (Exchange) -> Void
    ) -> @Sendable () -> Void {
        let callNumber = answeredRequests.withLock { count in
            count += 1
            return count
        }
        let mocked = mockedResponseProvider(endpoint, request, callNumber)
        let exchange = Self.exchange(answering: request, with: mocked, endpoint: endpoint)
        guard let delay else {
            deliver(exchange)
            return {}
        }
        let now = scheduler.now
        let remaining = delay - max(now - (startedAt ?? now), .zero)
        if delay > .zero && remaining <= .zero {
            deliver(exchange)
            return {}
        }
        let delivered = Locked(false)
        let deliverOnce: @Sendable (Exchange) -> Void = { exchange in
            let isFirst = delivered.withLock { wasDelivered in
                defer { wasDelivered = true }
                return !wasDelivered
            }
            if isFirst { deliver(exchange) }
        }
        let work = scheduler.schedule(after: remaining) { deliverOnce(exchange) }
        return {
            work.cancel()
            deliverOnce(Exchange(request: request, error: URLError(.cancelled)))
        }
    }

    /// What the transport would have delivered for `mocked`: a response for the full request URL and its body,
    /// or the transport error.
    private static func exchange(
        answering request: URLRequest,
        with mocked: MockedResponse?,
        endpoint: EndpointType
    ) -> Exchange {
        guard let mocked else {
            return Exchange(request: request, error: MissingMockedResponseError(endpoint: endpoint.nameForMessages))
        }
        if let transportError = mocked.transportError {
            return Exchange(request: request, error: transportError)
        }
        // As on the network: a body over the endpoint's limit is refused, not delivered.
        if let body = mocked.bodyData, body.count > endpoint.maximumResponseBodySize {
            return Exchange(request: request, error: ResponseBodyTooLargeError(limit: endpoint.maximumResponseBodySize))
        }
        guard let url = request.url else {
            let reason =
                "The mocked response \(mocked.status) could not be made into an HTTP response for a request "
                + "without URL."
            return Exchange(request: request, error: UnusableMockedResponseError(reason: reason))
        }
        let head = ResponseHead(
            url: url,
            statusCode: mocked.status.code,
            httpVersion: "HTTP/1.1",
            headerFields: mocked.headers
        )
        // A mock without a body reaches the plugins as `nil`, as in Microya; decoding treats it as an empty body.
        return Exchange(request: request, data: mocked.bodyData, head: head)
    }
}
