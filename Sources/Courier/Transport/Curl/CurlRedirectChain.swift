#if canImport(CCourierCurl)
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A request other than a `GET` or a `HEAD`, whose redirects Courier follows itself, one exchange per hop: libcurl
/// 7.88 would send a method it was given by name (`PUT`, `PATCH`, `DELETE`) on after any redirect, even a 303, which
/// asks for a `GET`, and would keep a `POST`'s `Content-Type` on the `GET` it turns it into.
///
/// The chain owns what spans its hops: the caller's one completion and its cancellation (the pipeline's timeout
/// spans them from outside).
final class CurlRedirectChain: Sendable {
    private let transport: CurlTransport
    private let engine: CurlEngine
    private let options: TransportOptions
    private let completion: @Sendable (Result<TransportResponse, any Error>) -> Void
    /// The hop in flight, and whether the chain was stopped or has delivered.
    private let state = Locked(OnceState<CurlSending>())
    /// When the first hop started, when the answer's timings are measured.
    private let startedAt: ContinuousClock.Instant?

    init(
        transport: CurlTransport,
        engine: CurlEngine,
        options: TransportOptions,
        completion: @escaping @Sendable (Result<TransportResponse, any Error>) -> Void
    ) {
        self.transport = transport
        self.engine = engine
        self.options = options
        self.completion = completion
        startedAt = options.measuresTimings ? .now : nil
    }

    /// Sends `request`'s first hop; returns what cancels the whole chain.
    func start(_ request: URLRequest) -> @Sendable () -> Void {
        var request = request
        if let stream = request.httpBodyStream {
            // Read once, so that a redirect that keeps the body can send it again.
            do {
                request.httpBody = try stream.readAll()
                request.httpBodyStream = nil
            } catch {
                // No hop takes over the request the engine was chosen for.
                engine.release()
                finish(with: .failure(error))
                return {}
            }
        }
        send(request, options: options, followed: 0)
        return { [weak self] in self?.stop(because: URLError(.cancelled)) }
    }

    private func send(_ request: URLRequest, options hopOptions: TransportOptions, followed: Int) {
        // The first hop takes over the request the engine was chosen for; each later one counts anew.
        if followed > 0 { engine.reserve() }
        let hopStartedAt = startedAt.map { _ in ContinuousClock.now }
        let exchange = transport.exchange(
            for: request,
            on: engine,
            method: request.httpMethod ?? "GET",
            options: hopOptions,
            libcurlFollowsRedirects: false
        ) {
            [self] result in
            hopEnded(with: result, of: request, options: hopOptions, followed: followed, startedAt: hopStartedAt)
        }
        guard let exchange else { return }
        // Under the chain's lock, so that a cancel either finds the hop started or keeps it from starting.
        let started = state.withLock { state -> Bool in
            guard case .kept = state.attach(exchange) else { return false }
            return engine.post(.start(exchange))
        }
        if !started { exchange.end(with: .failure(URLError(.cancelled))) }
    }

    private func hopEnded(
        with result: Result<TransportResponse, any Error>,
        of request: URLRequest,
        options hopOptions: TransportOptions,
        followed: Int,
        startedAt hopStartedAt: ContinuousClock.Instant?
    ) {
        guard case .failure(let redirect as CurlRedirect) = result else {
            guard followed > 0, case .success(var response) = result, let startedAt, let hopStartedAt else {
                finish(with: result)
                return
            }
            // As after a redirect libcurl followed: the first byte alone, from the first hop's start.
            let firstByte = response.timings?.firstByte.map { hopStartedAt - startedAt + $0 }
            response.timings = SendingTimings(firstByte: firstByte, reusedConnection: nil)
            finish(with: .success(response))
            return
        }
        do {
            let (next, nextOptions) = try CurlRedirects.request(
                following: redirect,
                of: request,
                options: hopOptions,
                followed: followed
            )
            send(next, options: nextOptions, followed: followed + 1)
        } catch {
            finish(with: .failure(error))
        }
    }

    private func finish(with result: Result<TransportResponse, any Error>) {
        if state.withLock({ $0.deliver() }) { completion(result) }
    }

    private func stop(because reason: any Error) {
        // The hop in flight is stopped under the lock, so that a hop that starts next finds the chain stopped.
        let deliver = state.withLock { state in
            let stop = state.stop()
            if let current = stop.handle {
                // Out of the engine's load before the caller hears of the stop, as for a single exchange.
                current.releaseLoad()
                engine.post(.stop(current, because: reason))
            }
            return stop.deliver
        }
        if deliver { completion(.failure(reason)) }
    }
}
#endif
