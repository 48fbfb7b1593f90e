/// When and how patiently ``RetryPlugin`` sends a request again.
public struct RetryPolicy: Sendable {
    /// The most sendings of one request, the first included; 1 never retries.
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

    /// The most time a request may take in all, waits included: a retry that would end its wait later is not made,
    /// and the caller gets the last answer.
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
    /// share of jitter.
    public func backoff(beforeRetry retry: Int, randomFraction: Double) -> Duration {
        let exponent = Double(max(retry - 1, 0))
        let unjittered = min(initialDelay * Self.power(multiplier, exponent), maximumDelay)
        let jitterShare = min(max(jitter, 0), 1) * min(max(randomFraction, 0), 1)
        return unjittered * (1 - jitterShare)
    }

    /// `base` to the power `exponent`, finite however many retries (a `Duration` multiplied by infinity traps).
    private static func power(_ base: Double, _ exponent: Double) -> Double {
        var result = 1.0
        var left = Int(exponent)
        while left > 0 && result < 1e9 {
            result *= base
            left -= 1
        }
        return min(result, 1e9)
    }
}
