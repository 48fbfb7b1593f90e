import Foundation
import Tracing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The way into the one request pipeline that every door goes through.
///
/// ``start(_:method:transfer:handle:transportDeliveryQueue:deliver:)`` builds the request and lets the plugins modify
/// it, then runs its sendings (`ApiProvider+Sending.swift`); it hands back the final ``Exchange``.
/// ``finish(_:endpoint:)`` (`ApiProvider+Decoding.swift`) decodes it and runs the plugins' `didPerformRequest`. The
/// split lets each door decode on the caller's side, so result types need not be `Sendable`. Each step is a callback
/// or a ``HookTask`` that starts on the calling thread, never a wait, so a blocking wait cannot starve it.
extension ApiProvider {
    /// - Parameter transportDeliveryQueue: Where to deliver what the network answers, or `nil` to deliver on the
    ///   transport's own queue (only for `deliver` closures that never block). A request refused while it is built
    ///   is delivered on the calling thread, before `start` returns; a mocked answer is delivered where its
    ///   scheduler runs it (or at once, without a delay), unless a plugin's hook suspends on the way.
    /// - Parameter method: Sent instead of the endpoint's own method, for a door that brings its own body.
    func start(
        _ endpoint: EndpointType,
        method: HttpMethod? = nil,
        transfer: TransferPlan? = nil,
        handle: CancellableRequest,
        transportDeliveryQueue: DispatchQueue? = nil,
        deliver: @escaping @Sendable (Exchange) -> Void
    ) {
        start(
            endpoint,
            method: method,
            transfer: transfer,
            handle: handle,
            transportDeliveryQueue: transportDeliveryQueue,
            delivery: .calling(deliver)
        )
    }

    /// ``start(_:method:transfer:handle:transportDeliveryQueue:deliver:)`` with the outcome's way out given as an
    /// ``ExchangeDelivery``.
    /// - Parameter carriedBy: What carries the sendings instead of the provider's transport (see ``RequestRun``).
    func start(
        _ endpoint: EndpointType,
        method: HttpMethod? = nil,
        transfer: TransferPlan? = nil,
        handle: CancellableRequest,
        transportDeliveryQueue: DispatchQueue? = nil,
        carriedBy: (any Transport)? = nil,
        delivery deliver: ExchangeDelivery
    ) {
        // A mocked answer's delay counts from here, so that time passing while the request is on its way (a
        // test advancing the scheduler from another thread) is not added to it.
        let mockClockAtStart = mockDelayClock?.now
        let built: RequestBuilder.Built
        // A mocked request never reaches a transport: its body stays in memory, where mocks and plugins can see it,
        // and no temporary file is written that nothing would read.
        let purpose: RequestBuilder.Purpose = isMocked ? .inspecting : .sending
        switch prepare(endpoint, method: method, headers: transfer?.headers ?? [:], purpose: purpose) {
        case .success(let prepared): built = prepared
        case .failure(let refusal):
            refusal.bodyFile?.removeIfTemporary()
            _ = handle.finish()
            return deliver(Exchange(request: refusal.request, error: refusal.error))
        }
        // A plugin's `process` runs where answers are handed over, which must not be the transport's thread: a slow
        // hook would hold up the other requests on it. (`didPerformRequest` runs where the door finishes: the
        // caller's task or thread, or the queue its door gives.) A provider without such a plugin pays no hop.
        let deliveryQueue = transportDeliveryQueue ?? (pluginHooks.contains(.process) ? .global() : nil)
        // Only a provider with an observing plugin follows its requests: without one, nothing of this is made.
        let observation = observers.isEmpty ? nil : observe(endpoint, request: built.request)
        let run = RequestRun(
            endpoint: endpoint,
            built: built,
            handle: handle,
            // A mocked answer is delivered where its scheduler runs it.
            deliveryQueue: isMocked ? nil : deliveryQueue,
            observation: observation,
            transfer: transfer,
            followsAttempts: pluginHooks.contains(.process),
            mockClockAtStart: mockClockAtStart,
            carriedBy: carriedBy,
            deliver: deliver
        )
        if let observation { observation.began() }
        if hasPlugins {
            observation.bound {
                for plugin in plugins {
                    plugin.willPerformRequest(built.request, endpoint: endpoint)
                }
            }
        }
        attempt(1, of: run)
    }

    /// The observation of a request about to start, in the caller's trace context. Kept out of `start`, which a
    /// provider without observers runs without it.
    @inline(never)
    private func observe(_ endpoint: EndpointType, request: URLRequest) -> RequestObservation {
        RequestObservation(
            endpointName: observersNameRequests ? endpoint.telemetryName : nil,
            request: request,
            context: ServiceContext.current ?? .topLevel,
            observers: observers
        )
    }

    /// Builds the request for `endpoint` and lets every plugin modify it: what is sent, and what
    /// ``urlRequest(for:)`` shows. The header check runs again after the plugins.
    /// - Parameter headers: Set on the built request before the plugins see it (a transfer's own, e.g.
    ///   `Last-Event-ID`).
    func prepare(
        _ endpoint: EndpointType,
        method: HttpMethod? = nil,
        headers: [String: String] = [:],
        purpose: RequestBuilder.Purpose
    ) -> Result<RequestBuilder.Built, RequestRefusal> {
        var built: RequestBuilder.Built
        let request = RequestBuilder.request(
            for: endpoint,
            baseUrl: baseUrl,
            method: method,
            purpose: purpose,
            baseUrls: baseUrls
        )
        switch request {
        case .success(let success): built = success
        case .failure(let error): return .failure(RequestRefusal(request: nil, error: error, bodyFile: nil))
        }
        for (name, value) in headers {
            built.request.setValue(value, forHTTPHeaderField: name)
        }
        // The builder checked its headers; only a plugin's change needs checking again.
        guard hasPlugins else { return .success(built) }
        for plugin in plugins {
            plugin.modifyRequest(&built.request, endpoint: endpoint)
        }
        do {
            try RequestBuilder.validateHeaders(of: built.request)
        } catch {
            return .failure(RequestRefusal(request: built.request, error: error, bodyFile: built.bodyFile))
        }
        return .success(built)
    }
}

/// A request that could not be built, or that a plugin's change made invalid. Outside the provider's generic context:
/// a type nested in it would cost a lookup of its type on every request.
struct RequestRefusal: Error {
    /// The request as the plugins left it, or `nil` when it could not be built at all.
    let request: URLRequest?
    let error: InvalidRequestError
    let bodyFile: RequestBuilder.BodyFile?
}
