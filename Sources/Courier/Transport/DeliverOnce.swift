import Foundation

/// A transport's completion, which runs once, whoever gets there first: the answer, a timeout or a cancel. For the
/// transports and the mocks, which all owe their caller exactly one completion. Not generic: a generic one, called
/// from another module, would wrap each completion in one more closure.
package struct DeliverOnce: Sendable {
    package typealias Value = Result<TransportResponse, any Error>

    /// One allocation for the lock and the completion.
    private let completion: Locked<(@Sendable (Value) -> Void)?>

    package init(_ completion: @escaping @Sendable (Value) -> Void) {
        self.completion = Locked(completion)
    }

    /// Runs the completion with `value` unless it has run already.
    /// - Returns: Whether this call ran it.
    @discardableResult
    package func deliver(_ value: Value) -> Bool {
        let completion = self.completion.withLock { completion in
            defer { completion = nil }
            return completion
        }
        guard let completion else { return false }
        completion(value)
        return true
    }
}
