import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A hook into every request of a provider: modify it, observe it being sent, observe its result.
///
/// For each request a provider calls its plugins in the order they were given, each hook once:
/// 1. ``modifyRequest(_:endpoint:)`` on the built request (later plugins see earlier plugins' changes);
/// 2. ``willPerformRequest(_:endpoint:)`` just before it is sent;
/// 3. ``didPerformRequest(urlSessionResult:typedResult:endpoint:)`` with the outcome, before the caller gets it.
///
/// The third hook runs for every request, whatever happens, exactly once. A request whose result is
/// ``ApiError/invalidRequest(reason:)`` was never sent and never got `willPerformRequest` (nor `modifyRequest`
/// when the endpoint itself could not be built, only when a plugin's change made it invalid); every other
/// result follows exactly one call of each hook, also for a request cancelled before it reached the network.
///
/// Hooks can be called from any thread, for many requests at once: a subclass that keeps state must guard it
/// (the built-in plugins do). The class is `@unchecked Sendable` so that Microya-style subclasses keep
/// compiling; Swift 6 asks each subclass to restate it (`class MyPlugin: Plugin<MyApi>, @unchecked Sendable`),
/// which is the subclass's promise that its hooks are safe to call concurrently.
open class Plugin<EndpointType: Endpoint>: @unchecked Sendable {
    /// Creates a plugin.
    public init() {}

    /// Changes the request before it is sent, e.g. to add a header.
    ///
    /// Header names and values are checked again afterwards: a name that is not a token, or a value with CR, LF or
    /// NUL, fails the request with ``ApiError/invalidRequest(reason:)``. (On Linux, `URLRequest.setValue` itself
    /// drops a value with CR or LF; set `allHTTPHeaderFields` to have such a value refused rather than dropped.)
    open func modifyRequest(_ request: inout URLRequest, endpoint: EndpointType) {}

    /// Called with the final request (after every plugin's `modifyRequest`) just before it is handed to the
    /// transport.
    open func willPerformRequest(_ request: URLRequest, endpoint: EndpointType) {}

    /// Called with the transport's raw result and the typed result, before the caller receives it.
    open func didPerformRequest<ResultType: Decodable>(
        urlSessionResult: ApiProvider<EndpointType>.URLSessionResult,
        typedResult: ApiProvider<EndpointType>.TypedResult<ResultType>,
        endpoint: EndpointType
    ) {}
}
