import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The one request pipeline that every entry point goes through.
///
/// It is split at the transport: ``start(_:handle:transportDeliveryQueue:deliver:)`` builds, modifies and sends
/// the request and hands back an ``Exchange``; ``finish(_:endpoint:)`` decodes it and runs the plugins'
/// `didPerformRequest`. The split lets each entry point decode on the caller's side, so result types need not
/// be `Sendable`, and keeps the pipeline free of Swift concurrency so a blocking wait cannot starve it.
extension ApiProvider {
    /// - Parameter transportDeliveryQueue: Where to deliver what the network answers, or `nil` to deliver on the
    ///   transport's own queue (only for `deliver` closures that never block). A request that ends before reaching
    ///   the network is delivered on the calling thread, before `start` returns; a mocked answer is delivered where
    ///   its scheduler runs it (or at once, without a delay).
    func start(
        _ endpoint: EndpointType,
        handle: CancellableRequest,
        transportDeliveryQueue: DispatchQueue? = nil,
        deliver: @escaping @Sendable (Exchange) -> Void
    ) {
        // A mocked answer's delay counts from here, so that time passing while the request is on its way (a
        // test advancing the scheduler from another thread) is not added to it.
        let mockClockAtStart = mockingBehavior?.scheduler.now
        let built: RequestBuilder.Built
        // A mocked request never reaches a transport: its body stays in memory, where mocks and plugins can see it,
        // and no temporary file is written that nothing would read.
        switch prepare(endpoint, purpose: mockingBehavior == nil ? .sending : .inspecting) {
        case .success(let prepared): built = prepared
        case .failure(let refusal):
            refusal.bodyFile?.removeIfTemporary()
            handle.finish()
            return deliver(Exchange(request: refusal.request, error: refusal.error))
        }
        let bodyFile = built.bodyFile
        let deliver: @Sendable (Exchange) -> Void = { exchange in
            // Whatever way the request ended, a multipart body written to a temporary file is not needed anymore.
            bodyFile?.removeIfTemporary()
            handle.finish()
            deliver(exchange)
        }
        let request = built.request
        for plugin in plugins {
            plugin.willPerformRequest(request, endpoint: endpoint)
        }
        send(
            request,
            bodyFile: bodyFile,
            endpoint: endpoint,
            mockClockAtStart: mockClockAtStart,
            handle: handle,
            transportDeliveryQueue: transportDeliveryQueue,
            deliver: deliver
        )
    }

    /// A request that could not be built, or that a plugin's change made invalid.
    struct Refusal: Error {
        /// The request as the plugins left it, or `nil` when it could not be built at all.
        let request: URLRequest?
        let error: InvalidRequestError
        let bodyFile: RequestBuilder.BodyFile?
    }

    /// Builds the request for `endpoint` and lets every plugin modify it: what is sent, and what
    /// ``urlRequest(for:)`` shows. The header check runs again after the plugins.
    func prepare(_ endpoint: EndpointType, purpose: RequestBuilder.Purpose) -> Result<RequestBuilder.Built, Refusal> {
        var built: RequestBuilder.Built
        switch RequestBuilder.request(for: endpoint, baseUrl: baseUrl, purpose: purpose) {
        case .success(let success): built = success
        case .failure(let error): return .failure(Refusal(request: nil, error: error, bodyFile: nil))
        }
        for plugin in plugins {
            plugin.modifyRequest(&built.request, endpoint: endpoint)
        }
        do {
            try RequestBuilder.validateHeaders(of: built.request)
        } catch {
            return .failure(Refusal(request: built.request, error: error, bodyFile: built.bodyFile))
        }
        return .success(built)
    }

    /// Hands the final request to the network or the mocks, unless it was cancelled first.
    private func send(
        _ request: URLRequest,
        bodyFile: RequestBuilder.BodyFile?,
        endpoint: EndpointType,
        mockClockAtStart: Duration?,
        handle: CancellableRequest,
        transportDeliveryQueue: DispatchQueue?,
        deliver: @escaping @Sendable (Exchange) -> Void
    ) {
        let started = handle.start {
            switch carrier {
            case .network(let transport):
                return transport.send(
                    request,
                    bodyFile: bodyFile?.url,
                    timeout: endpoint.timeout,
                    maximumBodySize: endpoint.maximumResponseBodySize
                ) { data, response, error in
                    let exchange = Exchange(request: request, data: data, response: response, error: error)
                    if let transportDeliveryQueue {
                        transportDeliveryQueue.async { deliver(exchange) }
                    } else {
                        deliver(exchange)
                    }
                }
            case .mocks(let mockingBehavior):
                // Delivered where the scheduler runs it, never re-queued: that is what makes a mocked answer
                // arrive inside the `advance` call that reaches it, or before `performRequest` returns.
                let startedAt = mockClockAtStart ?? mockingBehavior.scheduler.now
                return mockingBehavior.answer(request, for: endpoint, startedAt: startedAt, deliver: deliver)
            }
        }
        if !started {
            deliver(Exchange(request: request, error: URLError(.cancelled)))
        }
    }

    func finish<ResultType: Decodable>(
        _ exchange: Exchange,
        endpoint: EndpointType
    ) -> TypedResult<ResultType> {
        let typedResult = ResponseDecoder.decode(exchange, as: ResultType.self, endpoint: endpoint)
        let urlSessionResult: URLSessionResult = (exchange.data, exchange.response, exchange.error)
        for plugin in plugins {
            plugin.didPerformRequest(urlSessionResult: urlSessionResult, typedResult: typedResult, endpoint: endpoint)
        }
        return typedResult
    }

    /// The async side of ``start(_:handle:transportDeliveryQueue:deliver:)``: cancelling the awaiting task
    /// cancels the request.
    func exchange(for endpoint: EndpointType) async -> Exchange {
        let handle = CancellableRequest()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                start(endpoint, handle: handle) { continuation.resume(returning: $0) }
            }
        } onCancel: {
            handle.cancel()
        }
    }
}
