#if WebSocket
import Courier

/// When and how patiently a dropped WebSocket connection is opened again (``WebSocketOptions/reconnection``).
///
/// A connection is dropped when it ends without the client closing it and without a fault of the server's: it broke
/// without a close frame (1006), the server closed it with one of ``reconnectingCodes`` (by default those that say
/// "come back": 1001, 1011, 1012, 1013), or a ping went unanswered. The upgrade is then sent again through the
/// provider's pipeline (plugins, a token refresh), after a backoff on the provider's scheduler, and the reader reads
/// on from the new connection as if nothing had happened, once the `resubscribe` hook of
/// `webSocket(on:receiving:sending:options:resubscribe:)` has run.
public struct WebSocketReconnection: Sendable {
    /// The backoff and its limits, as for a request's retries: the upgrades sent to reconnect (`maximumAttempts`,
    /// counted across drops until a connection stays up as long as `maximumDelay`, so that a server that accepts and
    /// drops at once is given up on), the waits between them (`initialDelay`, `multiplier`, `maximumDelay`,
    /// `jitter`), the refused upgrades tried again (`retryableStatusCodes`) and whether a failure to connect is
    /// (`retriesTransportErrors`). Its `totalBudget` and `maximumRetryAfter` do not apply here.
    public var policy: RetryPolicy
    /// The close codes from the server that count as a drop.
    public var reconnectingCodes: Set<WebSocketCloseCode>
    /// The source of jitter, a number in `0..<1`; a fixed one makes the waits predictable.
    public var randomFraction: @Sendable () -> Double

    /// The server's close codes that ask a client to come back: going away, internal error, service restart and try
    /// again later.
    public static let comeBackCodes: Set<WebSocketCloseCode> = [
        .goingAway, .internalError, .serviceRestart, .tryAgainLater,
    ]

    /// Creates a policy: by default up to 6 attempts to reconnect, waiting 1 s, 2 s, 4 s… up to 30 s, each with up to
    /// half of it taken off at random so that the clients a server dropped together do not come back together.
    public init(
        policy: RetryPolicy = RetryPolicy(maximumAttempts: 6, initialDelay: .seconds(1), jitter: 0.5),
        reconnectingCodes: Set<WebSocketCloseCode> = Self.comeBackCodes,
        randomFraction: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) }
    ) {
        self.policy = policy
        self.reconnectingCodes = reconnectingCodes
        self.randomFraction = randomFraction
    }

    /// Whether a connection that ended with `closure`, which the client did not start, is opened again.
    func reopens(after closure: WebSocketClosure) -> Bool {
        closure.code == .abnormalClosure || reconnectingCodes.contains(closure.code)
    }
}
#endif
