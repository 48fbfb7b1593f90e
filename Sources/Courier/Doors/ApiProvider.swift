import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Sends the requests of one ``Endpoint`` type and returns typed results.
///
/// Every door leads into the same pipeline (build the request, run the plugins, send it, decode the answer, run the
/// plugins again): `async`, a completion handler, a blocking wait, a Combine publisher (with `CourierCombine`), and
/// the transfers (downloads, streams, Server-Sent Events, progress). A provider is `Sendable`: share one between any
/// number of tasks and threads. Made with a ``MockingBehavior``, it answers with mocked
/// responses instead of the network, for tests.
///
/// ```swift
/// let provider = ApiProvider<TodoApi>()
/// let todos = await provider.response(on: .list(page: 1), decodeBodyTo: [Todo].self)
/// ```
public final class ApiProvider<EndpointType: Endpoint>: Sendable {
    /// The result of a request: the decoded value or an ``ApiError``.
    public typealias TypedResult<T: Decodable> = Result<T, ApiError<EndpointType.ClientErrorType>>

    /// What the transport delivered, before decoding: the body, the response and the transport error.
    public typealias URLSessionResult = (data: Data?, response: URLResponse?, error: Error?)

    /// The base URL used instead of each endpoint's own ``Endpoint/baseUrl``, or `nil` to use the endpoints'.
    ///
    /// Settable, as in Microya (e.g. to switch servers from a debug menu): requests started afterwards use the new
    /// one; requests already on their way keep theirs.
    public var baseUrl: URL? {
        get { configuredBaseUrl.withLock { $0 } }
        set { configuredBaseUrl.withLock { $0 = newValue } }
    }

    private let configuredBaseUrl: Locked<URL?>

    /// The plugins called for every request, in this order.
    public let plugins: [Plugin<EndpointType>]

    /// The plugins by the hooks they have: a hook that no plugin has is not run.
    let roles: PluginRoles<EndpointType>

    /// The hooks some plugin has, and whether there is any plugin or answer step: what each request asks first.
    /// Plain values, since asking a generic array whether it is empty costs the runtime a lookup of the array's type
    /// and one of its conformance to `Collection`.
    let pluginHooks: PluginHooks
    let hasPlugins: Bool
    let hasAnswerSteps: Bool

    /// The plugins that follow each request (metrics, tracing, logging); empty, the pipeline makes no observation.
    let observers: [any RequestObserver]

    /// Whether an observer reads a request's endpoint name and attributes, which cost a reflection and a URL parse.
    let observersNameRequests: Bool

    /// What answers the requests: the network, or the mocks.
    let carrier: Carrier

    /// What times the requests (an endpoint's timeout, a download's or a stream's), or `nil` for real time.
    let scheduler: (any Scheduler)?

    /// What runs a request's timers, or `nil` for real time (``clock(of:scheduler:)``).
    let clock: (any Scheduler)?

    /// The scheduler whose clock a mocked answer's delay counts on, or `nil` when the mocks answer without a delay or
    /// the network answers. Read here rather than from ``carrier`` on each request: a generic enum's payload costs
    /// the runtime a lookup of its type each time it is read.
    let mockDelayClock: (any Scheduler)?

    /// Whether mocks answer the requests, read once for the same reason.
    let isMocked: Bool

    /// Steps in front of the carrier that may answer without it or change its answer (see ``AnswerStep``).
    let answerSteps: [any AnswerStep<EndpointType>]

    /// The HTTP cache of this provider's requests, or `nil` for none.
    public let cache: HttpCache?

    /// The base URL parsed last, reused by the next request with the same one.
    let baseUrls = BaseUrlCache()

    /// The transport carrying this provider's requests, or `nil` when mocks answer them.
    // Kept apart from `carrier`, whose generic payload would cost each request a lookup of its type.
    public let transport: (any Transport)?

    /// The mocking behavior answering this provider's requests, or `nil` when they go to the network.
    public var mockingBehavior: MockingBehavior<EndpointType>? {
        guard case .mocks(let behavior) = carrier else { return nil }
        return behavior
    }

    /// Creates a provider that sends its requests over the network.
    /// - Parameters:
    ///   - baseUrl: Overrides every endpoint's base URL (e.g. a staging server or a test server); `nil` keeps
    ///     the endpoints' own.
    ///   - plugins: Called for every request, in this order.
    ///   - sessionConfiguration: The configuration of the provider's own `URLSession`, or `nil` (the default) for
    ///     the platform's default transport: on Apple platforms a `URLSession` with a fresh `.ephemeral`
    ///     configuration, on Linux a `CurlTransport` of its own (libcurl directly, without FoundationNetworking's
    ///     limits). Either keeps cookies in memory and to this provider alone. A configuration given means
    ///     `URLSession` on every platform; pass one that uses shared storage to share it.
    ///   - scheduler: What times the requests (an endpoint's timeout, a download's or a stream's, the waits of a
    ///     retry or a Server-Sent Events reconnection that has no scheduler of its own, and the cache's entries'
    ///     age): `nil` for real time; a ``TestScheduler`` makes a test's timeouts and waits virtual, over the network
    ///     too.
    ///   - cache: The HTTP cache its `GET`s are answered from and stored in, or `nil` (the default) for none.
    public convenience init(
        baseUrl: URL? = nil,
        plugins: [Plugin<EndpointType>] = [],
        sessionConfiguration: URLSessionConfiguration? = nil,
        scheduler: (any Scheduler)? = nil,
        cache: HttpCache? = nil
    ) {
        self.init(
            baseUrl: baseUrl,
            plugins: plugins,
            carrier: .network(
                sessionConfiguration.map { URLSessionTransport(configuration: $0) } ?? defaultTransport()
            ),
            scheduler: scheduler,
            cache: cache
        )
    }

    /// Creates a provider that sends its requests through `transport`, e.g. a ``URLSessionTransport`` with more
    /// connections per host, or AsyncHTTPClient through the `CourierAsyncHTTPClient` product.
    /// - Parameters:
    ///   - baseUrl: Overrides every endpoint's base URL; `nil` keeps the endpoints' own.
    ///   - plugins: Called for every request, in this order.
    ///   - transport: Carries the requests to the server and back.
    ///   - scheduler: What times the requests (timeouts, the waits of a retry or a reconnection without a
    ///     scheduler of their own, and the cache's entries' age): `nil` for real time; a ``TestScheduler`` makes
    ///     them virtual.
    ///   - cache: The HTTP cache its `GET`s are answered from and stored in, or `nil` (the default) for none.
    public convenience init(
        baseUrl: URL? = nil,
        plugins: [Plugin<EndpointType>] = [],
        transport: any Transport,
        scheduler: (any Scheduler)? = nil,
        cache: HttpCache? = nil
    ) {
        self.init(baseUrl: baseUrl, plugins: plugins, carrier: .network(transport), scheduler: scheduler, cache: cache)
    }

    /// Creates a provider whose requests are answered by `mockingBehavior` instead of the network, as in Microya.
    ///
    /// A mocked provider opens no connection and creates no `URLSession`; its requests still go through the
    /// plugins and the decoding of a live one. Passing `nil` makes a provider that uses the network, with the
    /// default transport.
    /// - Parameters:
    ///   - baseUrl: Overrides every endpoint's base URL; it shows in the requests the plugins and mocks see.
    ///   - plugins: Called for every request, in this order.
    ///   - mockingBehavior: Answers every request with a ``MockedResponse``; `nil` for the network.
    ///   - cache: The HTTP cache its `GET`s are answered from and stored in, or `nil` (the default) for none; its
    ///     entries age on the behavior's scheduler.
    public convenience init(
        baseUrl: URL? = nil,
        plugins: [Plugin<EndpointType>] = [],
        mockingBehavior: MockingBehavior<EndpointType>?,
        cache: HttpCache? = nil
    ) {
        guard let mockingBehavior else {
            self.init(baseUrl: baseUrl, plugins: plugins, cache: cache)
            return
        }
        self.init(baseUrl: baseUrl, plugins: plugins, carrier: .mocks(mockingBehavior), cache: cache)
    }

    /// Creates a provider whose sendings go through `answerSteps` before the mocks of `mockingBehavior` when it is
    /// given, else before `transport` (the default transport when none is given): for the products and tests
    /// that build on the answer-step seam.
    package convenience init(
        baseUrl: URL? = nil,
        plugins: [Plugin<EndpointType>] = [],
        transport: (any Transport)? = nil,
        mockingBehavior: MockingBehavior<EndpointType>? = nil,
        scheduler: (any Scheduler)? = nil,
        answerSteps: [any AnswerStep<EndpointType>]
    ) {
        self.init(
            baseUrl: baseUrl,
            plugins: plugins,
            carrier: mockingBehavior.map { .mocks($0) } ?? .network(transport ?? defaultTransport()),
            scheduler: scheduler,
            answerSteps: answerSteps
        )
    }

    private init(
        baseUrl: URL?,
        plugins: [Plugin<EndpointType>],
        carrier: Carrier,
        scheduler: (any Scheduler)? = nil,
        cache: HttpCache? = nil,
        answerSteps: [any AnswerStep<EndpointType>] = []
    ) {
        self.scheduler = scheduler
        self.configuredBaseUrl = Locked(baseUrl)
        self.plugins = plugins
        self.roles = PluginRoles(plugins)
        pluginHooks = roles.hooks
        hasPlugins = !plugins.isEmpty
        self.observers = plugins.compactMap { $0 as? any RequestObserver }.filter(\.isObserving)
        self.observersNameRequests = observers.contains { $0.namesRequests }
        self.carrier = carrier
        self.cache = cache
        clock = Self.clock(of: carrier, scheduler: scheduler)
        if case .network(let network) = carrier { transport = network } else { transport = nil }
        isMocked = transport == nil
        if case .mocks(let behavior) = carrier, behavior.delay != nil {
            mockDelayClock = behavior.scheduler
        } else {
            mockDelayClock = nil
        }
        // The cache first: what it answers, no other step needs to see. Its entries age on the requests' clock.
        let cacheClock = clock ?? DispatchQueueScheduler.realTime
        self.answerSteps = (cache.map { [CacheStep(cache: $0, clock: cacheClock)] } ?? []) + answerSteps
        hasAnswerSteps = !self.answerSteps.isEmpty
    }
}
