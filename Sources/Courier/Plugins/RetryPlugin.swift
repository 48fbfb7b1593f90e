import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Sends a request again when it failed in a way that may pass: a transient transport failure, or a status such
/// as 429 or 503. Waits with exponential backoff and jitter, or as long as the server's `Retry-After` asks.
///
/// - Only idempotent methods (`GET`, `HEAD`, `PUT`, `DELETE`, `OPTIONS`, `TRACE`) are retried, unless
///   `retriesNonIdempotent` says an endpoint's `POST` or `PATCH` is safe to repeat (e.g. it carries an
///   idempotency key).
/// - `Retry-After` is honoured in both forms, seconds and HTTP-date; a wait longer than
///   ``RetryPolicy/maximumRetryAfter`` or past the ``RetryPolicy/totalBudget`` is not made: the caller gets the
///   server's answer.
/// - All waiting goes through `scheduler`, or without one the provider's (a mocked provider's: its behavior's): pass
///   a ``TestScheduler`` to either to check the delays without waiting.
///   Cancelling a request that waits for its retry ends it with ``ApiError/cancelled`` at once.
/// - The caller gets the last answer when the attempts or the budget run out.
///
/// ```swift
/// let provider = ApiProvider<TodoApi>(plugins: [RetryPlugin(policy: RetryPolicy(maximumAttempts: 4))])
/// ```
public final class RetryPlugin<EndpointType: Endpoint>: Plugin<EndpointType>, @unchecked Sendable {
    /// It judges answers in `process` alone.
    override public var implementedHooks: PluginHooks { [.process] }

    /// The policy the plugin follows.
    public let policy: RetryPolicy

    private let scheduler: (any Scheduler)?
    private let retriesNonIdempotent: @Sendable (EndpointType) -> Bool
    private let randomFraction: @Sendable () -> Double

    private static var idempotentMethods: Set<String> { ["GET", "HEAD", "PUT", "DELETE", "OPTIONS", "TRACE"] }

    /// Creates the plugin.
    /// - Parameters:
    ///   - policy: When and how long to wait.
    ///   - scheduler: What waits between sendings; by default the request's clock (see
    ///     ``AttemptDecision/retry(after:on:)``): the provider's scheduler, or real time.
    ///   - retriesNonIdempotent: Whether an endpoint with a method that is not idempotent may be retried.
    ///   - randomFraction: The source of jitter, a number in `0..<1`; a fixed one makes delays predictable.
    public init(
        policy: RetryPolicy = RetryPolicy(),
        scheduler: (any Scheduler)? = nil,
        retriesNonIdempotent: @escaping @Sendable (EndpointType) -> Bool = { _ in false },
        randomFraction: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) }
    ) {
        self.policy = policy
        self.scheduler = scheduler
        self.retriesNonIdempotent = retriesNonIdempotent
        self.randomFraction = randomFraction
    }

    override public func process(_ attempt: Attempt, endpoint: EndpointType) async -> AttemptDecision {
        guard isRetryable(attempt) else { return .proceed }
        let method = attempt.request.httpMethod?.uppercased() ?? "GET"
        guard Self.idempotentMethods.contains(method) || retriesNonIdempotent(endpoint) else { return .proceed }
        // Every sending counts, also a token refresh's replay.
        guard attempt.number < policy.maximumAttempts else { return .proceed }
        let retry = attempt.retryCount(requestedBy: self) + 1
        let delay: Duration
        if let response = attempt.response, let retryAfter = RetryAfter.delay(in: response, now: Date()) {
            guard retryAfter <= policy.maximumRetryAfter else { return .proceed }
            delay = retryAfter
        } else {
            delay = policy.backoff(beforeRetry: retry, randomFraction: randomFraction())
        }
        guard attempt.elapsed + delay <= policy.totalBudget else { return .proceed }
        return .retry(after: delay, on: scheduler)
    }

    private func isRetryable(_ attempt: Attempt) -> Bool {
        if let response = attempt.response {
            return policy.retryableStatusCodes.contains(response.statusCode)
        }
        return policy.retries(transportError: attempt.error)
    }
}
