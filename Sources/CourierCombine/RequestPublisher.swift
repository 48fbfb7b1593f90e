#if Combine
import Courier
import Foundation

#if canImport(Combine)
import Combine
#else
import OpenCombine
#endif

/// A publisher that sends one request through a provider's pipeline for each subscription, once the subscriber
/// asks for a value; created and never subscribed to, it sends nothing.
struct RequestPublisher<Output: SendableMetatype, Failure: Error>: Publisher {
    /// Starts the request and reports its outcome once; returns the handle that cancels it.
    let begin: @Sendable (_ deliver: @escaping @Sendable (Result<Output, Failure>) -> Void) -> CancellableRequest

    func receive<Downstream: Subscriber>(subscriber: Downstream)
    where Downstream.Input == Output, Downstream.Failure == Failure {
        // Type-erased: the subscription's closures cross threads, and a subscriber's own type need not be sendable.
        let subscription = RequestSubscription(subscriber: AnySubscriber(subscriber), begin: begin)
        subscriber.receive(subscription: subscription)
    }
}

/// One subscription: one request, one value then `.finished` or one `.failure`, and nothing after a cancel.
///
/// `@unchecked Sendable`: the pipeline delivers on another thread than the one that subscribed or cancels; every
/// field is read and written under `lock`, and the subscriber is called outside it, once, by whichever of
/// delivery and cancel takes it out of `state` first.
final class RequestSubscription<Output: SendableMetatype, Failure: Error>: Subscription, @unchecked Sendable {
    typealias Downstream = AnySubscriber<Output, Failure>

    private enum State {
        case waitingForDemand(Downstream)
        /// The handle is `nil` while the pipeline is being started.
        case running(Downstream, CancellableRequest?)
        case cancelled
        case finished
    }

    private let lock = NSLock()
    private var state: State
    private let begin: @Sendable (@escaping @Sendable (Result<Output, Failure>) -> Void) -> CancellableRequest

    init(
        subscriber: Downstream,
        begin:
            @escaping @Sendable (@escaping @Sendable (Result<Output, Failure>) -> Void) ->
            CancellableRequest
    ) {
        self.state = .waitingForDemand(subscriber)
        self.begin = begin
    }

    func request(_ demand: Subscribers.Demand) {
        guard demand > .none else { return }
        let started: Bool = lock.withLock {
            guard case .waitingForDemand(let downstream) = state else { return false }
            state = .running(downstream, nil)
            return true
        }
        guard started else { return }
        // Outside the lock: a request refused while built, or a mock without delay, is delivered before `begin`
        // returns.
        let handle = begin { result in self.deliver(result) }
        let cancelledMeanwhile: Bool = lock.withLock {
            switch state {
            case .running(let downstream, nil):
                state = .running(downstream, handle)
                return false
            case .cancelled: return true
            case .waitingForDemand, .running, .finished: return false
            }
        }
        if cancelledMeanwhile { handle.cancel() }
    }

    func cancel() {
        let handle: CancellableRequest? = lock.withLock {
            switch state {
            case .running(_, let handle):
                state = .cancelled
                return handle
            case .waitingForDemand:
                state = .cancelled
                return nil
            case .cancelled, .finished:
                return nil
            }
        }
        handle?.cancel()
    }

    private func deliver(_ result: Result<Output, Failure>) {
        let downstream: Downstream? = lock.withLock {
            guard case .running(let downstream, _) = state else { return nil }
            state = .finished
            return downstream
        }
        guard let downstream else { return }
        switch result {
        case .success(let value):
            _ = downstream.receive(value)
            downstream.receive(completion: .finished)
        case .failure(let error):
            downstream.receive(completion: .failure(error))
        }
    }
}
#endif
