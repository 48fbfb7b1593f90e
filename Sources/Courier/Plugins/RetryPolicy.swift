import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// When and how patiently ``RetryPlugin`` sends a request again.
public struct RetryPolicy: Sendable {
    /// The most sendings of one request, the first included and a token refresh's replay too; 1 never retries.
    public var maximumAttempts: Int

    /// The backoff before the first retry; each further one is `multiplier` times longer, up to `maximumDelay`.
    public var initialDelay: Duration

    /// How much longer each backoff is than the one before.
    public var multiplier: Double

    /// The longest backoff.
    public var maximumDelay: Duration

    /// The share of each backoff (0 to 1) that is randomly taken off, so that clients that failed together do not
    /// retry together.
    public var jitter: Double

    /// The time from a request's first sending within which a retry must start: a retry whose wait would end later
    /// is not made, and the caller gets the last answer. (The last sending itself may run past it, up to the
    /// endpoint's ``Endpoint/timeout``.)
    public var totalBudget: Duration

    /// The longest `Retry-After` that is waited for; a server asking for more gets no retry, and the caller gets
    /// its answer rather than an early retry.
    public var maximumRetryAfter: Duration

    /// The statuses that are retried: by default 408, 429, 500, 502, 503 and 504.
    public var retryableStatusCodes: Set<Int>

    /// Whether a transient transport failure (timeout, connection refused or lost, DNS, no network) is retried.
    public var retriesTransportErrors: Bool

    /// Creates a policy; every parameter has a default suited to an app talking to an API.
    public init(
        maximumAttempts: Int = 3,
        initialDelay: Duration = .milliseconds(500),
        multiplier: Double = 2,
        maximumDelay: Duration = .seconds(30),
        jitter: Double = 0.2,
        totalBudget: Duration = .seconds(60),
        maximumRetryAfter: Duration = .seconds(60),
        retryableStatusCodes: Set<Int> = [408, 429, 500, 502, 503, 504],
        retriesTransportErrors: Bool = true
    ) {
        self.maximumAttempts = maximumAttempts
        self.initialDelay = initialDelay
        self.multiplier = multiplier
        self.maximumDelay = maximumDelay
        self.jitter = jitter
        self.totalBudget = totalBudget
        self.maximumRetryAfter = maximumRetryAfter
        self.retryableStatusCodes = retryableStatusCodes
        self.retriesTransportErrors = retriesTransportErrors
    }

    /// The backoff before retry number `retry` (1 for the first), with `randomFraction` in `0..<1` taking off its
    /// share of jitter. Computed in seconds and capped before it becomes a `Duration`, so that no setting (a huge
    /// multiplier, a non-finite number) can overflow it.
    public func backoff(beforeRetry retry: Int, randomFraction: Double) -> Duration {
        let maximum = maximumDelay.inSeconds
        var seconds = initialDelay.inSeconds
        for _ in 1..<max(retry, 1) where seconds < maximum {
            seconds *= multiplier
        }
        let capped = seconds.isFinite ? min(max(seconds, 0), maximum) : maximum
        let share = Self.unit(jitter) * Self.unit(randomFraction)
        let milliseconds = min((capped * (1 - share) * 1000).rounded(), Double(Int64.max / 2))
        return .milliseconds(Int64(milliseconds))
    }

    /// Whether a sending that failed in the transport with `error` (no answer) is tried again: a transient failure
    /// (timeout, connection refused or lost, DNS, no network) when ``retriesTransportErrors`` is set.
    package func retries(transportError error: (any Error)?) -> Bool {
        guard retriesTransportErrors, let error = error as? URLError else { return false }
        return Self.transientErrors.contains(error.code)
    }

    /// `.unknown` too: FoundationNetworking reports what Courier cannot classify from libcurl's text that way, and
    /// most of it is a connection that went away.
    private static var transientErrors: Set<URLError.Code> {
        [
            .unknown,
            .timedOut, .cannotFindHost, .cannotConnectToHost, .networkConnectionLost, .dnsLookupFailed,
            .notConnectedToInternet, .badServerResponse, .dataNotAllowed,
        ]
    }

    /// `value` within 0…1, with anything that is not a number as 0.
    private static func unit(_ value: Double) -> Double {
        value.isFinite ? min(max(value, 0), 1) : 0
    }
}
