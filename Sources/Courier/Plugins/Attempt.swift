import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One sending of a request and what came back, as ``Plugin/process(_:endpoint:)`` sees it.
///
/// A request is sent once, and again each time a plugin answers ``AttemptDecision/retry(after:on:)``.
public struct Attempt: Sendable {
    /// 1 for the first sending, 2 for the first retry, and so on.
    public let number: Int

    /// The request as it was sent, after every plugin's ``Plugin/prepare(_:endpoint:)``.
    public let request: URLRequest

    /// The HTTP response, or `nil` when none arrived (see ``error``).
    public let response: HTTPURLResponse?

    /// The response body (empty when the server sent none), or `nil` when no response arrived.
    public let data: Data?

    /// Why no response arrived: a `URLError` such as `.timedOut`, or the size limit being exceeded.
    public let error: (any Error)?

    /// When this sending was handed to the transport.
    public let sentAt: ContinuousClock.Instant

    /// How long this sending took, from handing the request to the transport to its answer.
    public let duration: Duration

    /// The time since the request was first sent: how long its sendings took plus the delays waited between them.
    /// The delays count on the scheduler that waited for them, so under a ``TestScheduler`` they are virtual time.
    public let elapsed: Duration

    let retriesRequested: [ObjectIdentifier: Int]

    /// How many times `plugin` has asked for this request to be sent again so far.
    public func retryCount(requestedBy plugin: AnyObject) -> Int {
        retriesRequested[ObjectIdentifier(plugin), default: 0]
    }
}

/// What a plugin wants done after an ``Attempt``.
public enum AttemptDecision: Sendable {
    /// Go on: the next plugin decides, or, after the last one, the answer is decoded and delivered.
    case proceed

    /// Send the request again once `delay` has passed on `scheduler`, starting at every plugin's
    /// ``Plugin/prepare(_:endpoint:)``. Without a scheduler of its own the wait runs on the request's clock: the
    /// provider's scheduler (real time if it has none), or for a mocked provider its behavior's, so that a
    /// ``TestScheduler`` given there times the retries too. A delay of zero sends it again at once. Cancelling the
    /// request while it waits ends the wait.
    case retry(after: Duration = .zero, on: (any Scheduler)? = nil)

    /// End the request with ``ApiError/pluginFailed(plugin:error:)`` naming the plugin and `error`.
    case fail(any Error)
}
