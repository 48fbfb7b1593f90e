import Dispatch
import Foundation

extension ApiProvider {
    /// Sends the request for `endpoint` and blocks the calling thread until the decoded result is there.
    ///
    /// Safe from a completion handler and from inside a Swift concurrency task: the request is carried by the
    /// transport's threads (libcurl's engine threads, Linux's default; URLSession's; or AsyncHTTPClient's event
    /// loops), by Dispatch's and, when mocked, by the behavior's scheduler, never by the thread or task that waits,
    /// nor by Swift concurrency's pool. It still blocks that thread, so prefer
    /// ``response(on:decodeBodyTo:)`` in `async` code.
    ///
    /// With a mocked provider whose behavior has a delay, it blocks until the scheduler delivers the answer:
    /// another thread must advance a ``TestScheduler`` (see <doc:TestingWithMocks>).
    public func performRequestAndWait<ResultType: Decodable>(
        on endpoint: EndpointType,
        decodeBodyTo: ResultType.Type
    ) -> TypedResult<ResultType> {
        let delivered = DispatchSemaphore(value: 0)
        let box = Locked<Exchange?>(nil)
        start(endpoint, handle: CancellableRequest()) { exchange in
            box.withLock { $0 = exchange }
            delivered.signal()
        }
        delivered.wait()
        let exchange = box.withLock { $0 } ?? Exchange(error: URLError(.unknown))
        return finish(exchange, endpoint: endpoint)
    }

    /// Blocking variant for an endpoint whose answer has no body of interest.
    public func performRequestAndWait(on endpoint: EndpointType) -> TypedResult<EmptyBodyResponse> {
        performRequestAndWait(on: endpoint, decodeBodyTo: EmptyBodyResponse.self)
    }

    /// Blocking variant that returns the raw body, without decoding.
    public func performRawDataRequestAndWait(on endpoint: EndpointType) -> TypedResult<Data> {
        performRequestAndWait(on: endpoint, decodeBodyTo: Data.self)
    }
}
