import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Turns a provider into a mocked one: every request is answered with a ``MockedResponse`` instead of going to
/// the network, optionally after a delay on a ``Scheduler``.
///
/// A mocked answer travels the same pipeline as a live one: the plugins see the request and the result, the
/// response is an `HTTPURLResponse` for the full request URL, and decoding and error mapping are the same.
///
/// ```swift
/// let scheduler = TestScheduler()
/// let provider = ApiProvider<TodoApi>(
///     mockingBehavior: MockingBehavior(delay: .milliseconds(300), scheduler: scheduler)
/// )
/// ```
///
/// When the answer arrives:
/// - without a delay, before the call returns (a completion handler runs inside `performRequest`);
/// - with a delay, when ``scheduler`` runs it: inside the `advance(by:)` call that
///   reaches it, or on ``DispatchQueueScheduler/queue`` once the time has passed.
public struct MockingBehavior<EndpointType: Endpoint>: Sendable {
    /// How long a mocked answer takes, or `nil` to answer at once.
    ///
    /// A delay of zero still goes through the scheduler: on a ``TestScheduler`` it arrives with the next `advance`.
    public let delay: Duration?

    /// The scheduler that waits out ``delay``.
    public let scheduler: any Scheduler

    let mockedResponseProvider: @Sendable (EndpointType, URLRequest, Int) -> MockedResponse?

    /// Counts the requests answered, shared by all copies of this behavior.
    let answeredRequests = Locked(0)

    /// Creates a behavior that answers each request with what `mockedResponseProvider` returns for its endpoint.
    /// - Parameters:
    ///   - delay: How long each answer takes on `scheduler`; `nil` answers at once.
    ///   - scheduler: Waits out the delay. The default waits in real time on a global queue; pass a
    ///     ``TestScheduler`` to control time in tests, or ``ImmediateScheduler`` to skip the delay.
    ///   - mockedResponseProvider: The answer for an endpoint; `nil` fails the request with
    ///     ``ApiError/emptyMockedResponse(endpoint:)``. The default is the endpoint's own
    ///     ``Endpoint/mockedResponse``.
    public init(
        delay: Duration? = nil,
        scheduler: any Scheduler = DispatchQueueScheduler(),
        mockedResponseProvider: @escaping @Sendable (EndpointType) -> MockedResponse? = { $0.mockedResponse }
    ) {
        self.init(delay: delay, scheduler: scheduler) { endpoint, _, _ in mockedResponseProvider(endpoint) }
    }

    /// Creates a behavior whose answers can depend on the request as built and on how many came before, e.g. to
    /// answer "401 first, then 200".
    ///
    /// ```swift
    /// let behavior = MockingBehavior<TodoApi> { endpoint, request, callNumber in
    ///     callNumber == 1 ? endpoint.mock(status: .unauthorized) : endpoint.mockedResponse
    /// }
    /// ```
    /// - Parameters:
    ///   - delay: How long each answer takes on `scheduler`; `nil` answers at once.
    ///   - scheduler: Waits out the delay; the default waits in real time on a global queue.
    ///   - mockedResponseProvider: Called once per request, in the order the requests are sent, with the endpoint,
    ///     the `URLRequest` after all plugins changed it, and the request's number (1 for the first this
    ///     behavior answers, across all endpoints and all providers sharing the behavior).
    public init(
        delay: Duration? = nil,
        scheduler: any Scheduler = DispatchQueueScheduler(),
        mockedResponseProvider: @escaping @Sendable (EndpointType, URLRequest, Int) -> MockedResponse?
    ) {
        self.delay = delay
        self.scheduler = scheduler
        self.mockedResponseProvider = mockedResponseProvider
    }
}
