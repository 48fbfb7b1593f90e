#if Combine
import CourierCombine
import Foundation

/// What one subscription to a publisher received: its values, then how it ended.
struct PublisherOutcome<Output: Sendable, Failure: Error>: Sendable {
    enum Ending: Sendable {
        case finished
        case failure(Failure)
    }

    let values: [Output]
    let ending: Ending

    /// The failure, or `nil` when the stream finished.
    var failure: Failure? {
        if case .failure(let failure) = ending { return failure }
        return nil
    }

    var finishedWithOneValue: Bool {
        if case .finished = ending { return values.count == 1 }
        return false
    }
}

/// Keeps a subscription alive until the test is done with it.
final class SubscriptionKeeper: @unchecked Sendable {
    private let lock = NSLock()
    private var cancellables: [AnyCancellable] = []

    func keep(_ cancellable: AnyCancellable) { lock.withLock { cancellables.append(cancellable) } }
}

extension Publisher where Output: Sendable {
    /// Subscribes with `sink` (unlimited demand) and returns once the stream has ended.
    func outcome() async -> PublisherOutcome<Output, Failure> {
        let keeper = SubscriptionKeeper()
        let outcome = await withCheckedContinuation {
            (continuation: CheckedContinuation<PublisherOutcome<Output, Failure>, Never>) in
            var values: [Output] = []
            let cancellable = sink(
                receiveCompletion: { completion in
                    switch completion {
                    case .finished: continuation.resume(returning: PublisherOutcome(values: values, ending: .finished))
                    case .failure(let error):
                        continuation.resume(returning: PublisherOutcome(values: values, ending: .failure(error)))
                    }
                },
                receiveValue: { values.append($0) }
            )
            keeper.keep(cancellable)
        }
        withExtendedLifetime(keeper) {}
        return outcome
    }
}

/// A subscriber that asks for nothing until told to, and records what it received.
final class OnDemandSubscriber<Input: Sendable, Failure: Error>: Subscriber, @unchecked Sendable {
    private let lock = NSLock()
    private var subscription: Subscription?
    private var received: [Input] = []
    private let ended: AsyncStream<Void>
    private let endedContinuation: AsyncStream<Void>.Continuation

    init() {
        (ended, endedContinuation) = AsyncStream<Void>.makeStream()
    }

    var values: [Input] { lock.withLock { received } }

    func receive(subscription: Subscription) { lock.withLock { self.subscription = subscription } }

    func receive(_ input: Input) -> Subscribers.Demand {
        lock.withLock { received.append(input) }
        return .none
    }

    func receive(completion: Subscribers.Completion<Failure>) { endedContinuation.finish() }

    /// Asks for one value.
    func ask() { lock.withLock { subscription }?.request(.max(1)) }

    /// Returns once the stream has ended.
    func waitForEnd() async { for await _ in ended {} }
}
#endif
