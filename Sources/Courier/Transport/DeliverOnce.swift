import Foundation

/// A transport's completion, which runs once, whoever gets there first: the answer, a timeout or a cancel. For the
/// transports and the mocks, which all owe their caller exactly one completion. Not generic: a generic one, called
/// from another module, would wrap each completion in one more closure.
package struct DeliverOnce: Sendable {
    package typealias Value = Result<TransportResponse, any Error>

    /// One allocation for the lock and the completion.
    private let completion: Locked<TakeOnce<Completion>>

    /// The completion in a struct: a function kept as a generic value would cost a conversion, one allocation.
    private struct Completion: Sendable {
        let run: @Sendable (Value) -> Void
    }

    package init(_ completion: @escaping @Sendable (Value) -> Void) {
        self.completion = Locked(TakeOnce(Completion(run: completion)))
    }

    /// Runs the completion with `value` unless it has run already.
    /// - Returns: Whether this call ran it.
    @discardableResult
    package func deliver(_ value: Value) -> Bool {
        guard let completion = completion.withLock({ $0.take() }) else { return false }
        completion.run(value)
        return true
    }
}
