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
/// let auth = TokenRefreshPlugin<TodoApi>(token: session.accessToken) { rejectedToken in
///     try await session.refresh()  // returns the new access token
/// }
/// let provider = ApiProvider<TodoApi>(plugins: [auth])
/// ```
public final class TokenRefreshPlugin<EndpointType: Endpoint>: Plugin<EndpointType>, @unchecked Sendable {
    /// It sets the token in `prepare` and refreshes it in `process`.
    override public var implementedHooks: PluginHooks { [.prepare, .process] }

    private struct State {
        var token: String?
        /// Counts the token's replacements by ``setToken(_:)``, so that a refresh started before one does not
        /// overwrite it.
        var generation = 0
        /// The last tokens this plugin sent, to tell its own `Authorization` header from an endpoint's.
        var sent: [String] = []
        var refresh: (generation: Int, task: Task<String, Error>)?
        /// The last refresh that failed: the token it was to replace, its error, and when it failed. Requests sent
        /// with that token before then get the same error rather than a refresh of their own.
        var failure: (rejected: String?, error: Error, at: ContinuousClock.Instant)?
    }

    /// What a rejected request does next.
    private enum Next {
        case replay
        case fail(Error)
        case wait(Task<String, Error>)
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

    /// Replaces the token, e.g. after signing in or out; requests sent from now on carry it, also those waiting
    /// for a refresh that was running (its token is dropped).
    public func setToken(_ token: String?) {
        state.withLock { state in
            state.token = token
            state.generation += 1
            state.refresh = nil
            state.failure = nil
        }
    }

    override public func prepare(_ request: inout URLRequest, endpoint: EndpointType) async throws {
        guard appliesTo(endpoint), request.value(forHTTPHeaderField: "Authorization") == nil else { return }
        if let refreshing = state.withLock({ $0.refresh?.task }) {
            _ = try await RequestObservation.waitingForTokenRefresh(refreshing)
        }
        let token: String? = state.withLock { state in
            guard let token = state.token else { return nil }
            if !state.sent.contains(token) { state.sent = Array((state.sent + [token]).suffix(8)) }
            return token
        }
        guard let token else { return }
        AuthorizationHeader.set("Bearer \(token)", on: &request)
    }

    override public func process(_ attempt: Attempt, endpoint: EndpointType) async -> AttemptDecision {
        guard appliesTo(endpoint), !Task.isCancelled, let response = attempt.response, isRejection(response),
            attempt.retryCount(requestedBy: self) == 0
        else { return .proceed }
        let header = attempt.request.value(forHTTPHeaderField: "Authorization")
        let sentToken = header.flatMap { $0.hasPrefix("Bearer ") ? String($0.dropFirst("Bearer ".count)) : nil }
        // A credential this plugin did not send (the endpoint's own, another plugin's) is not its to refresh.
        if header != nil {
            guard let sentToken, state.withLock({ $0.sent.contains(sentToken) }) else { return .proceed }
        }
        switch next(afterRejecting: sentToken, sentAt: attempt.sentAt) {
        case .replay:
            return .retry()
        case .fail(let error):
            return .fail(error)
        case .wait(let refresh):
            do {
                _ = try await RequestObservation.waitingForTokenRefresh(refresh)
                return .retry()
            } catch {
                return .fail(error)
            }
        }
    }

    /// Replay at once when the token has been replaced since `rejected` was sent, fail with the error of a refresh
    /// that already failed for it, or wait for the running refresh, or for one started here.
    private func next(afterRejecting rejected: String?, sentAt: ContinuousClock.Instant) -> Next {
        state.withLock { state in
            if let running = state.refresh { return .wait(running.task) }
            if let newer = state.token, newer != rejected { return .replay }
            if let failure = state.failure, failure.rejected == rejected, sentAt < failure.at {
                return .fail(failure.error)
            }
            let generation = state.generation
            let refresh = self.refresh
            let started = HookTask.detached { [state = self.state] in
                do {
                    let token = try await refresh(rejected)
                    state.withLock { state in
                        guard state.generation == generation else { return }
                        state.refresh = nil
                        state.token = token
                        state.failure = nil
                    }
                    return token
                } catch {
                    let failedAt = ContinuousClock.now
                    state.withLock { state in
                        guard state.generation == generation else { return }
                        state.refresh = nil
                        state.failure = (rejected, error, failedAt)
                    }
                    throw error
                }
            }
            state.refresh = (generation, started)
            return .wait(started)
        }
    }
}
