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
/// field is read and written under `lock` (a subscriber need not be `Sendable`, so Courier's lock box cannot hold
/// it), and the subscriber is called outside it, once, by whichever of delivery and cancel takes it out first.
final class RequestSubscription<Output: SendableMetatype, Failure: Error>: Subscription, @unchecked Sendable {
    typealias Downstream = AnySubscriber<Output, Failure>

    private let lock = NSLock()
    /// Until the first demand, or a cancel: taken out by the delivery, or let go by a cancel.
    private var downstream: Downstream?
    private var demanded = false
    /// The request's handle, and whether it was cancelled or delivered: Courier's one rule for both.
    private var sending = OnceState<CancellableRequest>()
    private let begin: @Sendable (@escaping @Sendable (Result<Output, Failure>) -> Void) -> CancellableRequest

    init(
        subscriber: Downstream,
        begin:
            @escaping @Sendable (@escaping @Sendable (Result<Output, Failure>) -> Void) ->
            CancellableRequest
    ) {
        downstream = subscriber
        self.begin = begin
    }

    func request(_ demand: Subscribers.Demand) {
        guard demand > .none else { return }
        let step: Int? = lock.withLock {
            guard !demanded else { return nil }
            demanded = true
            return sending.begin()
        }
        guard let step else { return }
        // Outside the lock: a request refused while built, or a mock without delay, is delivered before `begin`
        // returns.
        let handle = begin { result in self.deliver(result) }
        if case .cancelNow(let handle) = lock.withLock({ sending.attach(handle, step: step) }) { handle.cancel() }
    }

    func cancel() {
        let handle: CancellableRequest? = lock.withLock {
            downstream = nil
            return sending.cancel()
        }
        handle?.cancel()
    }

    private func deliver(_ result: Result<Output, Failure>) {
        let downstream: Downstream? = lock.withLock {
            guard sending.deliver() else { return nil }
            // After a cancel there is no subscriber to tell.
            defer { self.downstream = nil }
            return self.downstream
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
