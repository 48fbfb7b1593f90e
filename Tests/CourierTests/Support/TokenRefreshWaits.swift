@testable import Courier

/// Counts the waits for a token refresh that a provider's requests start, as the pipeline reports them: a refresh
/// can then be held until every request the test sends waits for it, instead of sleeping and hoping they do.
///
/// Put it among the provider's plugins: an observing plugin is what makes the pipeline report its waits.
final class TokenRefreshWaits<EndpointType: Endpoint>: Plugin<EndpointType>, RequestObserver, @unchecked Sendable {
    private struct State {
        var count = 0
        var waiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }

    private let state = Locked(State())

    var namesRequests: Bool { false }

    /// How many waits for a token refresh have started so far, in `prepare` or in `process`.
    var count: Int { state.withLock { $0.count } }

    /// Returns once at least `count` waits for a token refresh have started.
    func waitForWaits(count: Int) async {
        await withCheckedContinuation { continuation in
            let reached = state.withLock { state in
                guard state.count < count else { return true }
                state.waiters.append((count, continuation))
                return false
            }
            if reached { continuation.resume() }
        }
    }

    func waitStarted(_ observation: RequestObservation, wait: Wait) {
        guard case .tokenRefresh = wait.kind else { return }
        let reached = state.withLock { state in
            state.count += 1
            let count = state.count
            defer { state.waiters.removeAll { $0.count <= count } }
            return state.waiters.filter { $0.count <= count }.map(\.continuation)
        }
        for continuation in reached { continuation.resume() }
    }
}
