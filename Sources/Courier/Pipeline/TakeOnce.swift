/// A value that one of several parties takes, once: a completion, or a continuation that the answer, a timer and a
/// cancel race to resume. A plain value, kept in its owner's lock.
package struct TakeOnce<Value> {
    @usableFromInline var value: Value?
    @usableFromInline var taken = false

    @inlinable package init() {}

    @inlinable package init(_ value: Value) {
        self.value = value
    }

    /// Puts `value` in to be taken.
    /// - Returns: `value` back when it was taken already (a cancel came before the value did): act on it now.
    @inlinable package mutating func put(_ value: Value) -> Value? {
        if taken { return value }
        self.value = value
        return nil
    }

    /// Takes the value: the first call gets it (`nil` when it is not in yet, which makes a later ``put(_:)`` hand it
    /// back), every later one gets `nil`.
    @inlinable package mutating func take() -> Value? {
        guard !taken else { return nil }
        taken = true
        defer { value = nil }
        return value
    }
}

extension TakeOnce: Sendable where Value: Sendable {}
