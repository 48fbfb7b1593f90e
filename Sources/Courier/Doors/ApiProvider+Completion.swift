import Foundation

extension ApiProvider {
    /// Sends the request for `endpoint` and calls `completion` with the decoded body or the error.
    ///
    /// For a request sent over the network, `completion` runs on a background queue and may block (e.g. call
    /// ``performRequestAndWait(on:decodeBodyTo:)``) without stalling other requests. For a request that could
    /// not be built (``ApiError/invalidRequest(reason:)``) it runs before this method returns. A mocked provider
    /// (``MockingBehavior``) calls it before this method returns when the behavior has no delay, and otherwise
    /// where the scheduler runs the answer: inside the ``TestScheduler``'s `advance` call that reaches it. There it
    /// must not block waiting for another answer from the same test scheduler, which only that advance can deliver.
    /// The body is decoded on that background queue, which is why `ResultType`'s metatype must be sendable
    /// (true of every type whose `Decodable` conformance is not isolated to an actor).
    /// - Returns: A handle that cancels the request; ignoring it is fine.
    @discardableResult
    public func performRequest<ResultType: Decodable & SendableMetatype>(
        on endpoint: EndpointType,
        decodeBodyTo: ResultType.Type,
        completion: @escaping @Sendable (TypedResult<ResultType>) -> Void
    ) -> CancellableRequest {
        performRequest(on: endpoint, method: nil, decodeBodyTo: decodeBodyTo, completion: completion)
    }

    /// Sends the request for an endpoint whose answer has no body of interest; success is ``EmptyBodyResponse``.
    @discardableResult
    public func performRequest(
        on endpoint: EndpointType,
        completion: @escaping @Sendable (TypedResult<EmptyBodyResponse>) -> Void
    ) -> CancellableRequest {
        performRequest(on: endpoint, decodeBodyTo: EmptyBodyResponse.self, completion: completion)
    }

    /// Sends the request and calls `completion` with the raw body, without decoding.
    @discardableResult
    public func performRawDataRequest(
        on endpoint: EndpointType,
        completion: @escaping @Sendable (TypedResult<Data>) -> Void
    ) -> CancellableRequest {
        performRequest(on: endpoint, decodeBodyTo: Data.self, completion: completion)
    }
}
