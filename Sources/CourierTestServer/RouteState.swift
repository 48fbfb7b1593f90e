import Foundation

/// What the stateful routes remember across requests: how often each flaky key was asked for, which requests are
/// gathering, and which held answers (`/hold`, `/silent`, `/flood`) the client walked away from.
actor RouteState {
    private var askedCounts: [String: Int] = [:]
    private(set) var disconnected: Set<String> = []
    private var gathering: [String: [CheckedContinuation<Bool, Never>]] = [:]
    private var gatheringRounds: [String: Int] = [:]
    /// Callers of ``waitForDisconnect(_:)`` by number, with the held answer each waits for.
    private var disconnectWaiters: [Int: (id: String, continuation: CheckedContinuation<Void, Never>)] = [:]
    private var nextWaiter = 0

    /// The version of each `/cached` resource (1 until changed) and the status each answers while it is down.
    private var cachedVersions: [String: (number: Int, madeAt: Date)] = [:]
    private var cachedOutages: [String: Int] = [:]

    /// The resource's version, when that version was made (in whole seconds, as HTTP-dates are), and its outage.
    func cachedResource(_ key: String) -> (version: Int, madeAt: Date, outage: Int?) {
        let version = cachedVersions[key] ?? (1, Self.wholeSecondsNow())
        cachedVersions[key] = version
        return (version.number, version.madeAt, cachedOutages[key])
    }

    func changeCachedResource(_ key: String) {
        cachedVersions[key] = ((cachedVersions[key]?.number ?? 1) + 1, Self.wholeSecondsNow())
    }

    private static func wholeSecondsNow() -> Date {
        Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
    }

    func setCachedOutage(_ key: String, status: Int?) {
        cachedOutages[key] = status
    }

    /// Counts one more request for `key` and returns the count, 1 for the first.
    func ask(_ key: String) -> Int {
        askedCounts[key, default: 0] += 1
        return askedCounts[key, default: 0]
    }

    func recordDisconnect(_ id: String) {
        disconnected.insert(id)
        for (number, waiter) in disconnectWaiters where waiter.id == id {
            disconnectWaiters.removeValue(forKey: number)
            waiter.continuation.resume()
        }
    }

    /// Returns once the client of the held answer `id` has closed its connection, or once the waiting task is
    /// cancelled (by a test's time limit, say), so that a disconnect that never comes fails its test instead of
    /// hanging the whole run.
    func waitForDisconnect(_ id: String) async {
        guard !disconnected.contains(id) else { return }
        let number = nextWaiter
        nextWaiter += 1
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                guard !Task.isCancelled else { return continuation.resume() }
                disconnectWaiters[number] = (id, continuation)
            }
        } onCancel: {
            Task { await self.stopWaiting(number) }
        }
    }

    private func stopWaiting(_ number: Int) {
        disconnectWaiters.removeValue(forKey: number)?.continuation.resume()
    }

    /// Returns `true` once `count` callers are waiting for `key` together, or `false` after `limit`.
    func gather(_ key: String, count: Int, within limit: Duration) async -> Bool {
        await withCheckedContinuation { continuation in
            let round = gatheringRounds[key, default: 0]
            gathering[key, default: []].append(continuation)
            if gathering[key, default: []].count >= count {
                endGathering(key, round: round, gathered: true)
                return
            }
            Task {
                try? await Task.sleep(for: limit)
                self.endGathering(key, round: round, gathered: false)
            }
        }
    }

    /// Answers the callers of `round` for `key`, unless that round has ended already.
    private func endGathering(_ key: String, round: Int, gathered: Bool) {
        guard gatheringRounds[key, default: 0] == round else { return }
        gatheringRounds[key] = round + 1
        gathering.removeValue(forKey: key)?.forEach { $0.resume(returning: gathered) }
    }
}
