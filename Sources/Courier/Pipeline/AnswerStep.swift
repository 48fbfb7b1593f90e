import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A step between the plugins and the carrier, for what answers a request without the network or turns the
/// network's answer into another: an HTTP cache serving a fresh entry or turning a `304` into the stored response,
/// one exchange shared by identical requests in flight.
///
/// A provider's steps see every sending (the first and each retry, after the plugins' `prepare`), the first step
/// first, and each hands the request on to `next` (the next step, then the network or the mocks) or answers it
/// itself; whatever it completes with goes on as the carrier's answer, through the plugins' `process`, decoding and
/// the typed result, as any other. This is the one place for such steps: `ApiProvider+Carrier` puts them in front of
/// the carrier, for every door, every transport and the mocks alike.
///
/// The contract is a ``Transport``'s: `completion` runs exactly once, and the returned action cancels. A step that
/// answers a transfer (a download, a stream: ``TransportOptions/responseBodyReceiver`` is set) without `next`
/// answers with the whole body, which the pipeline hands to the transfer's receiver; a step that changes what `next`
/// answers for a transfer must give `next` a receiver of its own, since the one in `options` takes the body as it
/// arrives.
package protocol AnswerStep<EndpointType>: Sendable {
    associatedtype EndpointType: Endpoint

    /// Answers one sending of `request` for `endpoint`, or hands it on to `next`.
    /// - Returns: The action that cancels the sending: `completion` gets `URLError(.cancelled)` at once, unless it
    ///   has already run.
    func send(
        _ request: URLRequest,
        for endpoint: EndpointType,
        options: TransportOptions,
        next: any Transport,
        completion: @escaping @Sendable (Result<TransportResponse, any Error>) -> Void
    ) -> @Sendable () -> Void
}

/// A step in front of what comes after it, in a transport's shape, so that the send path needs not know it is there.
struct SteppedTransport<EndpointType: Endpoint>: Transport {
    let step: any AnswerStep<EndpointType>
    let endpoint: EndpointType
    let next: any Transport

    func send(
        _ request: URLRequest,
        options: TransportOptions,
        completion: @escaping @Sendable (Result<TransportResponse, any Error>) -> Void
    ) -> @Sendable () -> Void {
        step.send(request, for: endpoint, options: options, next: next, completion: completion)
    }
}
