#if canImport(os)
import os
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A value that many threads share, reachable only while holding its lock.
///
/// Courier's one lock box: shared state goes in one of these, so that the compiler checks the `Sendable` of the
/// types that hold it. The few types vouched for by hand instead say why where they are declared: ``Plugin``, for
/// Microya's subclasses; the libcurl engine's objects, confined to its thread; values that one reader owns. The
/// value and its lock live in one allocation: a request makes several of these, and `NSLock` on Linux would add two
/// more allocations each.
struct Locked<Value> {
    private let storage: LockedStorage<Value>

    init(_ value: Value) {
        storage = LockedStorage.make(value)
    }

    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try storage.withLock(body)
    }
}

extension Locked {
    /// The value kept for `key`, or the one `make` makes, kept from now on. `make` runs outside the lock (it may take
    /// locks of its own, as a metrics factory does); when two threads make one at once, the first kept wins.
    func value<Key: Hashable, Element>(for key: Key, orMake make: () -> Element) -> Element
    where Value == [Key: Element] {
        if let known = withLock({ $0[key] }) { return known }
        let made = make()
        return withLock { values in
            if let known = values[key] { return known }
            values[key] = made
            return made
        }
    }
}

/// Only values that may cross threads can be shared through the box.
extension Locked: @unchecked Sendable where Value: Sendable {}

#if canImport(os)
private typealias LockPrimitive = os_unfair_lock
#else
private typealias LockPrimitive = pthread_mutex_t
#endif

/// The value as the buffer's header and the lock as its one element, whose address stays put.
private final class LockedStorage<Value>: ManagedBuffer<Value, LockPrimitive> {
    static func make(_ value: Value) -> LockedStorage<Value> {
        let buffer = create(minimumCapacity: 1) { _ in value }
        let storage = unsafeDowncast(buffer, to: LockedStorage<Value>.self)
        storage.withUnsafeMutablePointerToElements { lock in
            #if canImport(os)
            lock.initialize(to: os_unfair_lock())
            #else
            lock.initialize(to: pthread_mutex_t())
            pthread_mutex_init(lock, nil)
            #endif
        }
        return storage
    }

    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try withUnsafeMutablePointers { value, lock in
            #if canImport(os)
            os_unfair_lock_lock(lock)
            defer { os_unfair_lock_unlock(lock) }
            #else
            pthread_mutex_lock(lock)
            defer { pthread_mutex_unlock(lock) }
            #endif
            return try body(&value.pointee)
        }
    }

    deinit {
        withUnsafeMutablePointerToElements { lock in
            #if !canImport(os)
            pthread_mutex_destroy(lock)
            #endif
            lock.deinitialize(count: 1)
        }
    }
}
