/// Every request a test server received, in arrival order.
actor RequestLog {
    private(set) var requests: [ReceivedRequest] = []
    /// The client ports requests came from: one per connection.
    private(set) var clientPorts: Set<Int> = []
    /// Callers of ``waitForRequests(count:)`` by number, with the count each waits for.
    private var waiters: [Int: (count: Int, continuation: CheckedContinuation<Void, Never>)] = [:]
    private var nextWaiter = 0

    func record(_ request: ReceivedRequest, clientPort: Int?) {
        requests.append(request)
        if let clientPort { clientPorts.insert(clientPort) }
        for (number, waiter) in waiters where waiter.count <= requests.count {
            waiters.removeValue(forKey: number)
            waiter.continuation.resume()
        }
    }

    /// Returns once at least `count` requests have arrived, or once the waiting task is cancelled (by a test's time
    /// limit, say), so that a request that never comes fails its test instead of hanging the whole run.
    func waitForRequests(count: Int) async {
        guard requests.count < count else { return }
        let number = nextWaiter
        nextWaiter += 1
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                guard !Task.isCancelled else { return continuation.resume() }
                waiters[number] = (count, continuation)
            }
        } onCancel: {
            Task { await self.stopWaiting(number) }
        }
    }

    private func stopWaiting(_ number: Int) {
        waiters.removeValue(forKey: number)?.continuation.resume()
    }
}
