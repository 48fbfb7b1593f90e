/// Every request a test server received, in arrival order.
actor RequestLog {
    private(set) var requests: [ReceivedRequest] = []
    /// The client ports requests came from: one per connection.
    private(set) var clientPorts: Set<Int> = []
    private var waiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []

    func record(_ request: ReceivedRequest, clientPort: Int?) {
        requests.append(request)
        if let clientPort { clientPorts.insert(clientPort) }
        let arrived = requests.count
        waiters.removeAll { waiter in
            guard waiter.count <= arrived else { return false }
            waiter.continuation.resume()
            return true
        }
    }

    /// Returns once at least `count` requests have arrived.
    func waitForRequests(count: Int) async {
        guard requests.count < count else { return }
        await withCheckedContinuation { waiters.append((count, $0)) }
    }
}
