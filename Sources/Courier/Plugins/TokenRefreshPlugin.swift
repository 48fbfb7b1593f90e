import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Sends a bearer token and, when the server rejects it, refreshes it once and replays the rejected requests.
///
/// - When an answer says the token was rejected (by default: status 401), the request waits for a refresh and is
///   sent again, once, with the new token. However many requests are rejected at once, one refresh runs: they
///   all wait for it. A request rejected with a token that has been replaced since it was sent is replayed with
///   the new token, without another refresh.
/// - A request that starts while a refresh runs waits for it instead of sending the old token.
/// - If the refresh throws, every request waiting for it, and every request sent before it failed that is rejected
///   later, fails with ``ApiError/pluginFailed(plugin:error:)`` carrying the refresh's error. A request sent after
///   the failure that is rejected starts a new refresh.
/// - If the replay is rejected too, the caller gets that answer (e.g. ``ApiError/clientError(statusCode:clientError:)``
///   with 401): there is no second refresh for the same request, so no loop.
/// - Cancelling a request that waits for a refresh ends it with ``ApiError/cancelled`` at once; the refresh goes
///   on for the others.
///
/// The refresh closure usually calls the API itself; give that call a provider without this plugin (or exclude its
/// endpoint with `appliesTo`), or it would wait for its own refresh.
///
/// ```swift
/// let auth = TokenRefreshPlugin<TodoApi>(token: storedToken) { rejectedToken in
///     try await session.refresh()  // returns the new access token
/// }
/// let provider = ApiProvider<TodoApi>(plugins: [auth])
/// ```
public final class TokenRefreshPlugin<EndpointType: Endpoint>: Plugin<EndpointType>, @unchecked Sendable {
    private struct State {
        var token: String?
        var refresh: Task<String, Error>?
        /// The last refresh that failed: the token it was to replace, its error, and when it failed. Requests sent
        /// with that token before then get the same error rather than a refresh of their own.
        var failure: (rejected: String?, error: Error, at: ContinuousClock.Instant)?
    }

    private let state: Locked<State>
    private let refresh: @Sendable (_ rejectedToken: String?) async throws -> String
    private let isRejection: @Sendable (HTTPURLResponse) -> Bool
    private let appliesTo: @Sendable (EndpointType) -> Bool

    /// Creates the plugin.
    /// - Parameters:
    ///   - token: The token to send until the first refresh; `nil` sends no header until then.
    ///   - isRejection: Whether an answer says the token was rejected; by default, status 401.
    ///   - appliesTo: Which endpoints get the token and are refreshed for; by default all. An endpoint's own
    ///     `Authorization` header wins.
    ///   - refresh: Gets a new token; it receives the token that was rejected. It runs once for all the requests
    ///     rejected at the same time.
    public init(
        token: String?,
        isRejection: @escaping @Sendable (HTTPURLResponse) -> Bool = { $0.statusCode == 401 },
        appliesTo: @escaping @Sendable (EndpointType) -> Bool = { _ in true },
        refresh: @escaping @Sendable (_ rejectedToken: String?) async throws -> String
    ) {
        self.state = Locked(State(token: token))
        self.refresh = refresh
        self.isRejection = isRejection
        self.appliesTo = appliesTo
    }

    /// The token sent now: the first one, or the latest refreshed one.
    public var token: String? { state.withLock { $0.token } }

    /// Replaces the token, e.g. after signing in or out; requests sent from now on carry it.
    public func setToken(_ token: String?) {
        state.withLock { state in
            state.token = token
            state.failure = nil
        }
    }

    override public func prepare(_ request: inout URLRequest, endpoint: EndpointType) async throws {
        guard appliesTo(endpoint), request.value(forHTTPHeaderField: "Authorization") == nil else { return }
        let (token, refreshing) = state.withLock { ($0.token, $0.refresh) }
        let current = try await refreshing?.value ?? token
        guard let current else { return }
        AuthorizationHeader.set("Bearer \(current)", on: &request)
    }

    override public func process(_ attempt: Attempt, endpoint: EndpointType) async -> AttemptDecision {
        guard appliesTo(endpoint), let response = attempt.response, isRejection(response),
            attempt.retryCount(requestedBy: self) == 0
        else { return .proceed }
        let sent = attempt.request.value(forHTTPHeaderField: "Authorization")
        let sentToken = sent?.hasPrefix("Bearer ") == true ? String(sent?.dropFirst("Bearer ".count) ?? "") : nil
        do {
            _ = try await refreshedToken(replacing: sentToken, sentAt: attempt.sentAt)
            return .retry()
        } catch {
            return .fail(error)
        }
    }

    /// The token that replaces `rejected`: the one a refresh already brought, the one a running refresh will
    /// bring, or the one a refresh started here brings.
    private func refreshedToken(replacing rejected: String?, sentAt: ContinuousClock.Instant) async throws -> String {
        let waitFor: Task<String, Error> = state.withLock { state in
            if let running = state.refresh { return running }
            if let newer = state.token, newer != rejected { return Task { newer } }
            if let failure = state.failure, failure.rejected == rejected, sentAt < failure.at {
                return Task { throw failure.error }
            }
            let refresh = self.refresh
            let started = HookTask.detached { [state = self.state] in
                do {
                    let token = try await refresh(rejected)
                    state.withLock { state in
                        state.refresh = nil
                        state.token = token
                        state.failure = nil
                    }
                    return token
                } catch {
                    let failedAt = ContinuousClock.now
                    state.withLock { state in
                        state.refresh = nil
                        state.failure = (rejected, error, failedAt)
                    }
                    throw error
                }
            }
            state.refresh = started
            return started
        }
        return try await waitFor.value
    }
}
