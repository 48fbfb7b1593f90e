/// Every request a test server received, in arrival order.
actor RequestLog {
    private(set) var requests: [ReceivedRequest] = []

    func record(_ request: ReceivedRequest) {
        requests.append(request)
    }
}
