import Foundation

/// A completion that runs once, whoever gets there first: the answer, the timeout or a cancel.
final class DeliverOnce<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var completion: (@Sendable (Value) -> Void)?

    init(_ completion: @escaping @Sendable (Value) -> Void) {
        self.completion = completion
    }

    /// Runs the completion with `value` unless it has run already.
    /// - Returns: Whether this call ran it.
    @discardableResult
    func deliver(_ value: Value) -> Bool {
        lock.lock()
        let completion = self.completion
        self.completion = nil
        lock.unlock()
        guard let completion else { return false }
        completion(value)
        return true
    }
}
