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
    private let serverAddress: String?
    private let lookups = Locked<CoreMetrics.Timer?>(nil)

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
        serverAddress = key.serverAddress
        requests = Counter(label: HttpClientMetrics.requests, dimensions: dimensions, factory: factory)
        activeRequests = Meter(label: HttpClientMetrics.activeRequests, dimensions: dimensions, factory: factory)
    }

    /// The counter `label` with one dimension more, e.g. the status class of `courier.client.responses`.
    func counter(_ label: String, _ name: String, _ value: String) -> Counter {
        counters.value(for: CounterKey(label: label, value: value)) {
            Counter(label: label, dimensions: dimensions + [(name, value)], factory: factory)
        }
    }

    /// `http.client.request.duration` for one outcome: a status (when an answer came) and an error type.
    func duration(statusCode: Int?, errorType: String?) -> CoreMetrics.Timer {
        timers.value(for: Outcome(statusCode: statusCode, errorType: errorType)) {
            var dimensions = self.dimensions
            if let statusCode { dimensions.append(("http.response.status_code", String(statusCode))) }
            if let errorType { dimensions.append(("error.type", errorType)) }
            return CoreMetrics.Timer(
                label: HttpClientMetrics.requestDuration,
                dimensions: dimensions,
                preferredDisplayUnit: .seconds,
                factory: factory
            )
        }
    }

    /// `dns.lookup.duration` for the server's name, made when the first lookup is reported; `nil` without a name.
    func nameLookup() -> CoreMetrics.Timer? {
        guard let serverAddress else { return nil }
        return lookups.withLock { timer in
            if let timer { return timer }
            let made = CoreMetrics.Timer(
                label: HttpClientMetrics.nameLookupDuration,
                dimensions: [("dns.question.name", serverAddress)],
                preferredDisplayUnit: .seconds,
                factory: factory
            )
            timer = made
            return made
        }
    }
}
