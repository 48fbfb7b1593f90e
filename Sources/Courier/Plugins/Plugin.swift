import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A hook into every request of a provider: change it, prepare each sending, judge each answer, observe the result.
///
/// For each request a provider calls its plugins in the order they were given, except `process`:
/// 1. ``modifyRequest(_:endpoint:)`` once, on the built request (later plugins see earlier plugins' changes);
/// 2. ``willPerformRequest(_:endpoint:)`` once, with the request as `modifyRequest` left it;
/// 3. for every sending (the first and each retry): ``prepare(_:endpoint:)``, which may await and may fail the
///    request, then, once the answer is there, ``process(_:endpoint:)``, which may ask for the request to be sent
///    again or fail it;
/// 4. ``didPerformRequest(urlSessionResult:typedResult:endpoint:)`` once, with the final outcome, before the caller
///    gets it.
///
/// Around each sending the plugins wrap each other like layers, the last one nearest the network: `prepare` runs
/// from the first plugin to the last, so the last sees the request exactly as sent; `process` runs from the last
/// to the first, so the last sees every answer as it came. The first plugin whose decision is not
/// ``AttemptDecision/proceed`` decides, and the plugins before it in the list are not asked about that answer.
/// Hence the usual order: `[ValidationPlugin, RetryPlugin, TokenRefreshPlugin, RequestLoggerPlugin,
/// ResponseLoggerPlugin]`, where the loggers see every sending and every answer, a 401 is refreshed before anything else judges it, and only what retries
/// cannot fix reaches validation.
///
/// `willPerformRequest` and `didPerformRequest` come in pairs, whatever happens: a request refused before
/// `willPerformRequest` (its result is ``ApiError/invalidRequest(reason:)``: the endpoint could not be built, or a
/// `modifyRequest` change made it invalid) gets neither, every other request gets both, also one cancelled or
/// failed by a plugin before it was sent (`didPerformRequest` for a plugin whose ``implementedHooks`` include it). A
/// cancelled sending is not passed to `process`.
///
/// Hooks can be called from any thread, for many requests at once: a subclass that keeps state must guard it
/// (the built-in plugins do). The class is `@unchecked Sendable` so that Microya-style subclasses keep
/// compiling; Swift 6 asks each subclass to restate it (`class MyPlugin: Plugin<MyApi>, @unchecked Sendable`),
/// which is the subclass's promise that its hooks are safe to call concurrently.
open class Plugin<EndpointType: Endpoint>: @unchecked Sendable {
    /// Creates a plugin.
    public init() {}

    /// The hooks besides `modifyRequest` and `willPerformRequest` that this plugin overrides, which the pipeline
    /// then runs: every one unless the plugin says otherwise, since Swift cannot tell which a subclass overrides.
    ///
    /// A plugin that only changes requests, or only sees outcomes, says so to pay for nothing else (see
    /// ``PluginHooks`` for what each hook costs per request):
    /// ```swift
    /// final class ApiVersionPlugin: Plugin<TodoApi>, @unchecked Sendable {
    ///     override var implementedHooks: PluginHooks { [] }
    ///
    ///     override func modifyRequest(_ request: inout URLRequest, endpoint: TodoApi) {
    ///         request.setValue("2", forHTTPHeaderField: "Api-Version")
    ///     }
    /// }
    /// ```
    /// A hook left out of the set is not called, even if the plugin overrides it: a subclass of a plugin that says
    /// its hooks, and overrides one more, says so too. The provider reads the set once, when it is made. The
    /// built-in plugins say which hooks they have; an instance of `Plugin` itself has none.
    open var implementedHooks: PluginHooks {
        type(of: self) == Plugin<EndpointType>.self ? [] : .all
    }

    /// Changes the request once, before anything is sent, e.g. to add a header.
    ///
    /// Header names and values are checked afterwards: a name that is not a token, or a value with CR, LF or
    /// NUL, fails the request with ``ApiError/invalidRequest(reason:)``. (On Linux, `URLRequest.setValue` itself
    /// drops a value with CR or LF; set `allHTTPHeaderFields` to have such a value refused rather than dropped.)
    open func modifyRequest(_ request: inout URLRequest, endpoint: EndpointType) {}

    /// Called once per request with the request as every plugin's ``Plugin/modifyRequest(_:endpoint:)`` left it, before
    /// the first ``Plugin/prepare(_:endpoint:)``.
    open func willPerformRequest(_ request: URLRequest, endpoint: EndpointType) {}

    /// Prepares each sending of the request: may await (e.g. a fresh token) and may fail the request by throwing.
    ///
    /// Runs before the first sending and before every retry, on the request as ``Plugin/modifyRequest(_:endpoint:)``
    /// left it plus the changes of the plugins before this one in this attempt. A thrown error ends the request
    /// with ``ApiError/pluginFailed(plugin:error:)``; so does a header this hook makes invalid. Cancelling the
    /// request while the hook awaits delivers ``ApiError/cancelled`` at once and cancels the task the hook runs in.
    open func prepare(_ request: inout URLRequest, endpoint: EndpointType) async throws {}

    /// Judges what one sending brought back: proceed, send the request again (after a delay), or fail it.
    ///
    /// Called for every sending that got an answer or a transport error, before any decoding.
    open func process(_ attempt: Attempt, endpoint: EndpointType) async -> AttemptDecision { .proceed }

    /// Called once with the final outcome (the transport's raw result and the typed result), before the caller
    /// receives it.
    open func didPerformRequest<ResultType: Decodable>(
        urlSessionResult: ApiProvider<EndpointType>.URLSessionResult,
        typedResult: ApiProvider<EndpointType>.TypedResult<ResultType>,
        endpoint: EndpointType
    ) {}
}
