import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Identical requests in flight at once, sharing one exchange: the first starts it, the others wait for its answer,
/// and each gets that answer for its own plugins and decoding. A caller that cancels leaves alone; the exchange is
/// cancelled only when its last caller leaves.
final class SharedSendings: Sendable {
    typealias Completion = @Sendable (Result<TransportResponse, any Error>) -> Void

    /// What makes two requests the same exchange: what is sent, and how it is carried.
    struct Key: Hashable, Sendable {
        /// The provider's number: another provider on the same cache may send over another transport.
        let provider: Int
        let partition: String
        /// How the request uses the cache, which decides what its callers get.
        let caching: Caching
        let cachePolicy: UInt
        let method: String
        let url: String
        let fields: [String: String]
        let timeout: Duration?
        let maximumResponseBodySize: Int
        let tls: TlsOptions?

        /// Trace context differs for every request, and says nothing about the answer.
        static let unsharedFields: Set<String> = ["traceparent", "tracestate", "baggage"]

        init(
            provider: Int,
            partition: String,
            request: URLRequest,
            fields: [String: String],
            caching: Caching,
            options: TransportOptions
        ) {
            self.provider = provider
            self.partition = partition
            self.caching = caching
            cachePolicy = request.cachePolicy.rawValue
            method = request.httpMethod ?? "GET"
            url = request.url?.absoluteString ?? ""
            var shared: [String: String] = [:]
            for (name, value) in fields {
                let name = name.lowercased()
                if !Self.unsharedFields.contains(name) { shared[name] = value }
            }
            self.fields = shared
            timeout = options.timeout
            maximumResponseBodySize = options.maximumResponseBodySize
            tls = options.tls
        }
    }

    private final class Shared: Sendable {
        struct State {
            var callers: [Int: Completion] = [:]
            var nextCaller = 0
            /// The exchange's cancel action; cancelled once every caller has left (abandoned), delivered once it
            /// has ended.
            var exchange = OnceState<CancelAction>()
        }

        let state = Locked(State())

        /// Adds a caller, unless every caller has left; its number.
        func add(_ completion: @escaping Completion) -> Int? {
            state.withLock { state in
                guard !state.exchange.isCancelled else { return nil }
                defer { state.nextCaller += 1 }
                state.callers[state.nextCaller] = completion
                return state.nextCaller
            }
        }
    }

    private let table = Locked<[Key: Shared]>([:])

    /// How many callers wait for exchanges in flight.
    var callerCount: Int {
        table.withLock { table in table.values.reduce(0) { $0 + $1.state.withLock { $0.callers.count } } }
    }

    /// Joins the exchange for `key`, starting it with `start` when none is in flight.
    /// - Returns: The action that takes this caller alone out: it gets `URLError(.cancelled)` at once.
    func join(
        _ key: Key,
        completion: @escaping Completion,
        start: (@escaping Completion) -> @Sendable () -> Void
    ) -> @Sendable () -> Void {
        let (shared, caller, isFirst) = table.withLock { table in
            // An exchange whose callers all left is being cancelled: a new caller starts another.
            if let existing = table[key], let caller = existing.add(completion) {
                return (existing, caller, false)
            }
            let shared = Shared()
            table[key] = shared
            return (shared, shared.add(completion) ?? 0, true)
        }
        if isFirst {
            let cancel = start { [table] result in
                table.withLock { if $0[key] === shared { $0[key] = nil } }
                let callers = shared.state.withLock { state in
                    _ = state.exchange.deliver()
                    defer { state.callers = [:] }
                    return state.callers.sorted { $0.key < $1.key }.map(\.value)
                }
                for caller in callers { caller(result) }
            }
            if case .cancelNow(let cancel) = shared.state.withLock({ $0.exchange.attach(cancel) }) { cancel() }
        }
        return { [table] in
            typealias Left = (completion: Completion, abandoned: Bool, cancel: CancelAction?)
            let left = shared.state.withLock { state -> Left? in
                guard let completion = state.callers.removeValue(forKey: caller) else { return nil }
                guard state.callers.isEmpty, !state.exchange.isOver else { return (completion, false, nil) }
                return (completion, true, state.exchange.cancel())
            }
            guard let left else { return }
            if left.abandoned {
                table.withLock { if $0[key] === shared { $0[key] = nil } }
            }
            left.completion(.failure(URLError(.cancelled)))
            left.cancel?()
        }
    }
}
