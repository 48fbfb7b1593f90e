import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The mocks as a carrier of the transport's own shape: a mocked provider's requests take the same send as live
/// ones, and this answers each with its ``MockedResponse``, at once without a delay, else when the behavior's
/// scheduler runs it (delivered there, never re-queued: that is what makes a mocked answer arrive inside the
/// `advance` call that reaches it, or before `performRequest` returns).
///
/// Made for one sending, because a mock is chosen by endpoint, which a transport is not given.
struct MockTransport<EndpointType: Endpoint>: Transport {
    let behavior: MockingBehavior<EndpointType>
    let endpoint: EndpointType
    /// The scheduler's clock when the request entered the pipeline, or `nil` for now; the delay counts from then. If
    /// the clock has already passed the due time (a test advanced it while the request was on its way), the answer
    /// is delivered at once instead of a full delay later.
    let startedAt: Duration?

    /// The mocked response is chosen now, so the call numbers follow the order in which requests were sent.
    /// - Returns: The cancel action; cancelling delivers `URLError(.cancelled)` at once and unschedules the answer.
    func send(
        _ request: URLRequest,
        options: TransportOptions,
        completion: @escaping @Sendable (Result<TransportResponse, any Error>) -> Void
    ) -> @Sendable () -> Void {
        let callNumber = behavior.answeredRequests.withLock { count in
            count += 1
            return count
        }
        let mocked = behavior.mockedResponseProvider(endpoint, request, callNumber)
        let answer = Self.answer(to: request, with: mocked, endpoint: endpoint)
        // The mocked body went out whole when the mocked answer came (not when a cancellation came first).
        var complete = completion
        if let report = options.uploadProgress, let size = uploadSize(of: request, bodyFile: options.bodyFile) {
            complete = { result in
                if case .success = result { report(size, size) }
                completion(result)
            }
        }
        guard let delay = behavior.delay else {
            complete(answer)
            return {}
        }
        let now = behavior.scheduler.now
        let remaining = delay - max(now - (startedAt ?? now), .zero)
        if delay > .zero && remaining <= .zero {
            complete(answer)
            return {}
        }
        let once = DeliverOnce(complete)
        let work = behavior.scheduler.schedule(after: remaining) { once.deliver(answer) }
        return {
            work.cancel()
            once.deliver(.failure(URLError(.cancelled)))
        }
    }

    /// What a transport would have delivered for `mocked`: a response for the full request URL and its body, or the
    /// transport error.
    private static func answer(
        to request: URLRequest,
        with mocked: MockedResponse?,
        endpoint: EndpointType
    ) -> Result<TransportResponse, any Error> {
        guard let mocked else {
            return .failure(MissingMockedResponseError(endpoint: endpoint.nameForMessages))
        }
        if let transportError = mocked.transportError { return .failure(transportError) }
        // As on the network: a body over the endpoint's limit is refused, not delivered.
        if let body = mocked.bodyData, body.count > endpoint.maximumResponseBodySize {
            return .failure(ResponseBodyTooLargeError(limit: endpoint.maximumResponseBodySize))
        }
        guard let url = request.url else {
            let reason =
                "The mocked response \(mocked.status) could not be made into an HTTP response for a request "
                + "without URL."
            return .failure(UnusableMockedResponseError(reason: reason))
        }
        let head = ResponseHead(
            url: url,
            statusCode: mocked.status.code,
            httpVersion: "HTTP/1.1",
            headerFields: mocked.headers
        )
        // A mock without a body reaches the plugins as `nil`, as in Microya; decoding treats it as an empty body.
        return .success(TransportResponse(head: head, body: mocked.bodyData ?? Data(), hasBody: mocked.bodyData != nil))
    }
}
