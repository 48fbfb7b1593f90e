import CoreMetrics

/// The metric objects of one kind of request (method, server and endpoint), made once by the factory and found
/// again with one lookup per event: asking the factory, or hashing every dimension, on each request would cost more
/// than the request's own pipeline.
final class MetricSeries: Sendable {
    /// What identifies the kind of request.
    struct Key: Hashable, Sendable {
        let method: String
        let serverAddress: String?
        let serverPort: Int?
        let endpointName: String

        init(_ observation: RequestObservation) {
            let attributes = observation.attributes
            (method, serverAddress, serverPort) = (attributes.method, attributes.serverAddress, attributes.serverPort)
            endpointName = observation.endpointName
        }
    }

    /// Method, server and endpoint: the dimensions every series of this kind of request carries.
    let dimensions: [(String, String)]
    let requests: Counter
    let activeRequests: Meter
    private let factory: any MetricsFactory
    private let counters = Locked<[CounterKey: Counter]>([:])
    private let timers = Locked<[Outcome: CoreMetrics.Timer]>([:])

    /// A counter with one dimension more; keys that hash without building a string.
    private struct CounterKey: Hashable {
        let label: String
        let value: String
    }

    private struct Outcome: Hashable {
        let statusCode: Int?
        let errorType: String?
    }

    init(_ key: Key, factory: any MetricsFactory) {
        var dimensions = [("http.request.method", key.method)]
        if let address = key.serverAddress { dimensions.append(("server.address", address)) }
        if let port = key.serverPort { dimensions.append(("server.port", String(port))) }
        dimensions.append((HttpClientMetrics.endpointDimension, key.endpointName))
        self.dimensions = dimensions
        self.factory = factory
        requests = Counter(label: HttpClientMetrics.requests, dimensions: dimensions, factory: factory)
        activeRequests = Meter(label: HttpClientMetrics.activeRequests, dimensions: dimensions, factory: factory)
    }

    /// The counter `label` with one dimension more, e.g. the status class of `courier.client.responses`.
    func counter(_ label: String, _ name: String, _ value: String) -> Counter {
        let key = CounterKey(label: label, value: value)
        if let known = counters.withLock({ $0[key] }) { return known }
        // Made outside the lock: a factory may take locks of its own.
        let made = Counter(label: label, dimensions: dimensions + [(name, value)], factory: factory)
        return counters.withLock { counters in
            if let known = counters[key] { return known }
            counters[key] = made
            return made
        }
    }

    /// `http.client.request.duration` for one outcome: a status (when an answer came) and an error type.
    func duration(statusCode: Int?, errorType: String?) -> CoreMetrics.Timer {
        let key = Outcome(statusCode: statusCode, errorType: errorType)
        if let known = timers.withLock({ $0[key] }) { return known }
        var dimensions = self.dimensions
        if let statusCode { dimensions.append(("http.response.status_code", String(statusCode))) }
        if let errorType { dimensions.append(("error.type", errorType)) }
        let made = CoreMetrics.Timer(
            label: HttpClientMetrics.requestDuration,
            dimensions: dimensions,
            preferredDisplayUnit: .seconds,
            factory: factory
        )
        return timers.withLock { timers in
            if let known = timers[key] { return known }
            timers[key] = made
            return made
        }
    }
}
