import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A provider's ``HttpCache`` at the answer-step seam: it answers a `GET` from the cache, revalidates, stores, and
/// shares identical requests in flight, for every door, every transport and the mocks.
struct CacheStep<EndpointType: Endpoint>: AnswerStep {
    let cache: HttpCache
    /// The provider's clock, and the wall-clock time at its zero: a stored answer's times are kept as dates, so that
    /// a directory's entries keep their age across providers, and they move with the scheduler, so that a
    /// ``TestScheduler`` ages them.
    let clock: any Scheduler
    let origin: Date
    /// Tells this provider's exchanges from another's on the same cache: they may go over other transports.
    let providerNumber: Int

    init(cache: HttpCache, clock: any Scheduler) {
        self.cache = cache
        self.clock = clock
        origin = Date().addingTimeInterval(-clock.now.inSeconds)
        providerNumber = providerCount.withLock { count in
            count += 1
            return count
        }
    }

    var now: Date { origin.addingTimeInterval(clock.now.inSeconds) }

    /// What one request asks of the cache.
    struct Rules {
        var key: CacheKey
        /// The request's header fields.
        var fields: [String: String]
        var usesStorage: Bool
        var servesStaleWhenOffline: Bool
        /// The request's own directives (`Cache-Control`, or `Pragma: no-cache`), with its `URLRequest` cache policy.
        var control: CacheControl
        /// For `.reloadIgnoringLocalCacheData`: fetched anew whatever is stored, and stored.
        var ignoresStored = false
        /// The cache's removals when the request started: its answer is stored only if none came since.
        var removalCount: Int
    }

    func send(
        _ request: URLRequest,
        for endpoint: EndpointType,
        options: TransportOptions,
        next: any Transport,
        completion: @escaping @Sendable (Result<TransportResponse, any Error>) -> Void
    ) -> @Sendable () -> Void {
        let method = request.httpMethod ?? "GET"
        guard Self.safeMethods.contains(method) else {
            return sendInvalidating(Self.uncached(request), options: options, next: next, completion: completion)
        }
        let caching = endpoint.caching
        let shares = caching.sharesInFlight ?? cache.sharesInFlight
        // Read once: each of URLRequest's lookups bridges to Foundation's request and searches its fields.
        let fields = request.allHTTPHeaderFields ?? [:]
        // A transfer's body goes to its receiver as it arrives, and a request with conditions or a range of its own
        // asks the server something a stored answer does not tell: they go past the cache.
        guard method == "GET", caching.usesStorage || shares, options.responseBodyReceiver == nil,
            options.requestBody == nil, options.bodyFile == nil, !Self.asksItsOwnQuestion(fields),
            let url = request.url
        else {
            return next.send(Self.uncached(request), options: options, completion: completion)
        }
        let rules = Rules(
            key: CacheKey(partition: cache.partition, url: Self.withoutFragment(url)),
            fields: fields,
            usesStorage: caching.usesStorage,
            servesStaleWhenOffline: caching.servesStaleWhenOffline ?? cache.servesStaleWhenOffline,
            cachePolicy: request.cachePolicy,
            removalCount: cache.removalCount
        )
        guard shares else {
            return answer(request, rules: rules, options: options, next: next, completion: completion)
        }
        let key = SharedSendings.Key(
            provider: providerNumber,
            partition: rules.key.partition,
            request: request,
            fields: fields,
            caching: caching,
            options: options
        )
        return cache.exchanges.join(key, completion: completion) { shared in
            answer(request, rules: rules, options: options, next: next, completion: shared)
        }
    }

    /// Answers from the cache when it may, else asks the network, conditionally when something is stored.
    private func answer(
        _ request: URLRequest,
        rules: Rules,
        options: TransportOptions,
        next: any Transport,
        completion: @escaping @Sendable (Result<TransportResponse, any Error>) -> Void
    ) -> @Sendable () -> Void {
        guard rules.usesStorage else {
            return next.send(Self.uncached(request), options: options, completion: completion)
        }
        let now = self.now
        let stored = rules.ignoresStored ? nil : Self.select(cache.store.variants(for: rules.key), for: rules.fields)
        if let stored, let status = Self.servable(stored, at: now, rules: rules) {
            if status == .stale(.whileRevalidating) { revalidateInBackground(stored, request, rules, options, next) }
            completion(.success(served(stored, status: status, for: request, at: now)))
            return {}
        }
        guard !rules.control.onlyIfCached else {
            // RFC 9111, section 5.2.1.7: nothing stored that may answer, and the network may not be asked.
            completion(.success(Self.gatewayTimeout(for: request)))
            return {}
        }
        let cancellation = Cancellation()
        forward(request, stored: stored, rules: rules, options: options, next: next, cancellation: cancellation) {
            completion($0)
        }
        return cancellation.cancel
    }

    /// Revalidates `stored` while it is served stale (RFC 5861, section 3), once at a time for each variant, within
    /// the request's timeout or a minute, so that a server that never answers does not keep it from the next.
    private func revalidateInBackground(
        _ stored: StoredResponse,
        _ request: URLRequest,
        _ rules: Rules,
        _ options: TransportOptions,
        _ next: any Transport
    ) {
        let revalidation = HttpCache.Revalidation(key: rules.key, varyValues: stored.varyValues)
        guard cache.revalidations.withLock({ $0.insert(revalidation).inserted }) else { return }
        // Behind the pipeline's timeout when the request has one; without, no request waits for it, so the step
        // bounds it.
        let timed: any Transport =
            options.timeout == nil ? TimedTransport(next: next, timeout: .seconds(60), receiver: nil) : next
        forward(request, stored: stored, rules: rules, options: options, next: timed, cancellation: Cancellation()) {
            [cache] _ in
            cache.revalidations.withLock { _ = $0.remove(revalidation) }
        }
    }

    /// Asks the network, with `stored`'s validators when there is one, and answers with what the answer makes of it:
    /// the stored answer updated by a `304`, the stored answer when an error allows a stale one, or the new answer,
    /// stored when it may be.
    private func forward(
        _ request: URLRequest,
        stored: StoredResponse?,
        rules: Rules,
        options: TransportOptions,
        next: any Transport,
        cancellation: Cancellation,
        completion: @escaping @Sendable (Result<TransportResponse, any Error>) -> Void
    ) {
        var conditional = Self.uncached(request)
        let etag = stored.flatMap { HeaderFields.field("ETag", in: $0.headerFields) }
        let lastModified = stored.flatMap { HeaderFields.field("Last-Modified", in: $0.headerFields) }
        if let etag { conditional.setValue(etag, forHTTPHeaderField: "If-None-Match") }
        if let lastModified { conditional.setValue(lastModified, forHTTPHeaderField: "If-Modified-Since") }
        let validates = etag != nil || lastModified != nil
        let requestTime = now
        let started = cancellation.start {
            next.send(conditional, options: options) { result in
                let now = self.now
                switch result {
                case .success(let answer):
                    let status = answer.head.statusCode ?? 0
                    let fields = answer.head.headerFields
                    if status == 304, validates, let stored {
                        // Section 4.3.4: a `304` that names another strong validator confirms another response;
                        // this one is dropped and fetched whole.
                        if let confirmed = HeaderFields.field("ETag", in: fields), confirmed != etag {
                            cache.update(rules.key, since: rules.removalCount) { $0.removeAll { $0 == stored } }
                            return forward(
                                request,
                                stored: nil,
                                rules: rules,
                                options: options,
                                next: next,
                                cancellation: cancellation,
                                completion: completion
                            )
                        }
                        let updated = updating(stored, with: fields, requestTime: requestTime, responseTime: now)
                        if !rules.control.noStore { store(updated, replacing: stored, for: request, rules: rules) }
                        return completion(.success(served(updated, status: .revalidated, for: request, at: now)))
                    }
                    if let stored, Self.serverErrors.contains(status), Self.allowsStaleIfError(stored, at: now, rules) {
                        return completion(
                            .success(served(stored, status: .stale(.afterError), for: request, at: now))
                        )
                    }
                    let kept = keep(
                        answer,
                        status: status,
                        fields: fields,
                        replacing: stored,
                        for: request,
                        rules,
                        requestTime,
                        now
                    )
                    completion(.success(Self.adding(.miss, stored: kept, to: answer)))
                case .failure(let error):
                    guard let stored, !Self.isCancellation(error) else { return completion(.failure(error)) }
                    if Self.allowsStaleIfError(stored, at: now, rules) {
                        return completion(
                            .success(served(stored, status: .stale(.afterError), for: request, at: now))
                        )
                    }
                    if rules.servesStaleWhenOffline, Self.isOffline(error), Self.mayServeStale(stored) {
                        return completion(.success(served(stored, status: .stale(.offline), for: request, at: now)))
                    }
                    completion(.failure(error))
                }
            }
        }
        if !started { completion(.failure(URLError(.cancelled))) }
    }

    /// The stored answer as an answer to `request`: its current `Age`, and the cache's `Cache-Status`.
    private func served(
        _ stored: StoredResponse,
        status: CacheStatus,
        for request: URLRequest,
        at now: Date
    )
        -> TransportResponse
    {
        let fields = ServedFields(
            stored: stored.headerFields,
            age: Int(min(stored.age(at: now), Double(CacheControl.greatestDeltaSeconds))),
            status: status
        )
        return Self.answer(
            for: request,
            statusCode: stored.statusCode,
            httpVersion: stored.httpVersion,
            fields: fields,
            body: stored.body,
            status: status
        )
    }
}

/// How many providers have made a cache step: each step's number.
private let providerCount = Locked(0)
