import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension ApiProvider {
    /// One sending of a request with a ``TransferPlan``: its body goes through a ``SendingReceiver``, which hands
    /// the outcome to `judge` (a streamed body at its head already), and its upload is counted.
    func sendTransfer(
        _ request: URLRequest,
        plan: TransferPlan,
        of run: RequestRun<EndpointType>,
        mockClockAtStart: Duration?,
        judge: @escaping @Sendable (Exchange) -> Void
    ) {
        var request = request
        // Asked again at each sending: a retry after a cut continues from what the last one wrote.
        if case .file(let download) = plan.destination {
            for (name, value) in download.resumeHeaders(for: request.url) {
                request.setValue(value, forHTTPHeaderField: name)
            }
        }
        let uploadSize = Courier.uploadSize(of: request, bodyFile: run.bodyFile?.url)
        // A request without a body has no upload to report.
        if let uploadSize { plan.uploadMeter?.restart(at: 0, expected: uploadSize) }
        let deliver: @Sendable (Exchange) -> Void = { exchange in
            guard let deliveryQueue = run.deliveryQueue else { return judge(exchange) }
            deliveryQueue.async { judge(exchange) }
        }
        let receiver = SendingReceiver(
            plan: plan,
            request: request,
            uploadSize: uploadSize,
            collectLimit: run.endpoint.maximumResponseBodySize,
            mocked: mockingBehavior != nil,
            deliver: deliver
        )
        let began = run.handle.step { () -> @Sendable () -> Void in
            switch carrier {
            case .network(let transport):
                return send(request, over: transport, receiver: receiver, of: run)
            case .mocks(let behavior):
                return answer(
                    request,
                    with: behavior,
                    receiver: receiver,
                    uploadSize: uploadSize,
                    of: run,
                    mockClockAtStart
                )
            }
        }
        if !began { run.finishCancelled(request) }
    }

    private func send(
        _ request: URLRequest,
        over transport: any Transport,
        receiver: SendingReceiver,
        of run: RequestRun<EndpointType>
    ) -> @Sendable () -> Void {
        let plan = receiver.plan
        var uploadProgress: (@Sendable (Int64, Int64?) -> Void)?
        if let meter = plan.uploadMeter {
            uploadProgress = { sent, expected in meter.set(completed: sent, expected: expected) }
        }
        let options = TransportOptions(
            bodyFile: run.bodyFile?.url,
            timeout: plan.transportTimeout(endpointTimeout: run.endpoint.timeout),
            maximumResponseBodySize: run.endpoint.maximumResponseBodySize,
            responseBodyReceiver: receiver,
            uploadProgress: uploadProgress,
            tls: run.endpoint.tls
        )
        let cancel = transport.send(request, options: options) { receiver.transportEnded($0) }
        receiver.attach(cancel: cancel, keepingTime: true)
        // Through the receiver, so that a head arriving after the cancellation opens no file.
        return { receiver.stop(because: URLError(.cancelled)) }
    }

    private func answer(
        _ request: URLRequest,
        with behavior: MockingBehavior<EndpointType>,
        receiver: SendingReceiver,
        uploadSize: Int64?,
        of run: RequestRun<EndpointType>,
        _ mockClockAtStart: Duration?
    ) -> @Sendable () -> Void {
        let meter = receiver.plan.uploadMeter
        let cancel = behavior.answer(request, for: run.endpoint, startedAt: mockClockAtStart) { exchange in
            if let error = exchange.error { return receiver.transportEnded(.failure(error)) }
            guard let head = exchange.head else {
                return receiver.transportEnded(.failure(URLError(.badServerResponse)))
            }
            // The mocked body went out whole when the mocked answer came.
            if let uploadSize { meter?.set(completed: uploadSize, expected: uploadSize) }
            receiver.transportEnded(.success(TransportResponse(head: head, body: exchange.data ?? Data())))
        }
        // A mocked answer comes on the scheduler's time: real-time timeouts would cut it short.
        receiver.attach(cancel: cancel, keepingTime: false)
        return { receiver.stop(because: URLError(.cancelled)) }
    }
}
