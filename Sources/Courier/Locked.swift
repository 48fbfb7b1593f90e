import Foundation

/// A value that many threads share, reachable only while holding its lock.
///
/// This box is the one place where Courier vouches for thread safety by hand: every other type's
/// `Sendable` conformance is checked by the compiler.
final class Locked<Value> {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}

/// Only values that may cross threads can be shared through the box.
extension Locked: @unchecked Sendable where Value: Sendable {}
