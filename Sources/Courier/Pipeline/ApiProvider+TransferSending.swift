import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension ApiProvider {
    /// One sending of a request with a ``TransferPlan``: its body goes through a ``SendingReceiver``, which hands
    /// the outcome to `judge` (a streamed body at its head already), and its upload is counted.
    /// - Returns: The action that cancels the sending.
    func sendTransfer(
        _ request: URLRequest,
        plan: TransferPlan,
        over transport: any Transport,
        timedBy clock: (any Scheduler)?,
        of run: RequestRun<EndpointType>,
        judge: @escaping @Sendable (Exchange) -> Void
    ) -> @Sendable () -> Void {
        var request = request
        // Asked again at each sending: a retry after a cut continues from what the last one wrote.
        if case .file(let download) = plan.destination {
            for (name, value) in download.resumeHeaders(for: request.url) {
                request.setValue(value, forHTTPHeaderField: name)
            }
        }
        let uploadSize = plan.requestBody?.length ?? Courier.uploadSize(of: request, bodyFile: run.bodyFile?.url)
        // A request without a body has no upload to report.
        if let uploadSize { plan.uploadMeter?.restart(at: 0, expected: uploadSize) }
        var uploadProgress: (@Sendable (Int64, Int64?) -> Void)?
        if let meter = plan.uploadMeter {
            uploadProgress = { sent, expected in meter.set(completed: sent, expected: expected) }
        }
        var options = TransportOptions(
            bodyFile: run.bodyFile?.url,
            timeout: run.endpoint.timeout,
            maximumResponseBodySize: run.endpoint.maximumResponseBodySize,
            uploadProgress: uploadProgress,
            tls: run.endpoint.tls,
            scheduler: clock
        )
        options.measuresTimings = run.observation != nil
        let receiver = SendingReceiver(
            plan: plan,
            request: request,
            uploadSize: uploadSize,
            collectLimit: run.endpoint.maximumResponseBodySize,
            timer: options.timer,
            deliver: { exchange in run.handOver(exchange, to: judge) }
        )
        options.responseBodyReceiver = receiver
        do {
            // While the body is being produced, the exchange is not silent: each part counts as activity.
            options.requestBody = try plan.requestBody?.reader { [weak receiver] in receiver?.noteRequestBodyPart() }
        } catch {
            // A body produced once that cannot be replayed: the plugins judge the refusal as this sending's answer.
            run.handOver(Exchange(request: request, error: error), to: judge)
            return {}
        }
        var transport = transport
        if let timeout = run.endpoint.timeout {
            transport = TimedTransport(next: transport, timeout: timeout, receiver: receiver)
        }
        let cancel = transport.send(request, options: options) { receiver.transportEnded($0) }
        receiver.attach(cancel: cancel)
        // Through the receiver, so that a head arriving after the cancellation opens no file.
        return { receiver.stop(because: URLError(.cancelled)) }
    }
}
