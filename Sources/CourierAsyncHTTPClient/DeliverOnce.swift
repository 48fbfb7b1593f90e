import NIOConcurrencyHelpers

/// A completion that runs once, whoever gets there first: the answer, the timeout or a cancel.
struct DeliverOnce<Value: Sendable>: Sendable {
    /// One allocation for the lock and the completion.
    private let completion: NIOLockedValueBox<(@Sendable (Value) -> Void)?>

    init(_ completion: @escaping @Sendable (Value) -> Void) {
        self.completion = NIOLockedValueBox(completion)
    }

    /// Runs the completion with `value` unless it has run already.
    /// - Returns: Whether this call ran it.
    @discardableResult
    func deliver(_ value: Value) -> Bool {
        let completion = self.completion.withLockedValue { completion in
            defer { completion = nil }
            return completion
        }
        guard let completion else { return false }
        completion(value)
        return true
    }
}
