/// The rule of one operation that may be cancelled and must deliver its outcome once, whoever gets there first: the
/// answer, a cancel or a timeout. A plain value, kept in its owner's lock: each transition says what the owner does
/// next, outside the lock.
///
/// `Handle` is what a cancel acts on (a cancel action, a client's task, a libcurl exchange). An operation goes
/// through steps (a hook, a sending, a redirect's hop), each with a handle of its own; steps are numbered, so that a
/// handle returned late, after a later step began, is not kept over that step's.
package struct OnceState<Handle> {
    @usableFromInline enum Phase {
        case running(step: Int, handle: Handle?)
        case cancelled(delivered: Bool)
        case delivered
    }

    @usableFromInline var phase: Phase

    @inlinable package init() {
        phase = .running(step: 0, handle: nil)
    }

    /// What to do with a handle given to ``attach(_:step:)``.
    package enum Attached {
        /// Kept: a cancel from now on returns it.
        case kept
        /// Cancelled before it came: cancel it now.
        case cancelNow(Handle)
        /// Of a step that is over, or of an operation that delivered without a cancel: let it go.
        case dropped
    }

    /// Whether a cancel (or a stop) came before the outcome was delivered.
    @inlinable package var isCancelled: Bool {
        if case .cancelled = phase { true } else { false }
    }

    /// Cancelled or delivered: no step begins, nothing more is taken in.
    @inlinable package var isOver: Bool {
        if case .running = phase { false } else { true }
    }

    /// Begins the next step.
    /// - Returns: The step's number, or `nil` when the operation was cancelled or delivered first.
    @inlinable package mutating func begin() -> Int? {
        guard case .running(let step, _) = phase else { return nil }
        phase = .running(step: step + 1, handle: nil)
        return step + 1
    }

    /// Keeps `handle` as what a cancel acts on, for `step` (`nil`: the current step, whatever it is).
    @inlinable package mutating func attach(_ handle: Handle, step: Int? = nil) -> Attached {
        switch phase {
        case .running(let current, _) where step == nil || step == current:
            phase = .running(step: current, handle: handle)
            return .kept
        case .cancelled:
            return .cancelNow(handle)
        case .running, .delivered:
            return .dropped
        }
    }

    /// Cancels, unless a cancel or an outcome came first; delivers nothing: the operation's end delivers the
    /// cancellation through ``deliver()``.
    /// - Returns: The handle to cancel, when one is kept and this call cancelled.
    @inlinable package mutating func cancel() -> Handle? {
        guard case .running(_, let handle) = phase else { return nil }
        phase = .cancelled(delivered: false)
        return handle
    }

    /// Records that an outcome is delivered: the first, a cancellation included; the handle is let go.
    /// - Returns: `false` when one was delivered already, and this one must be dropped.
    @inlinable package mutating func deliver() -> Bool {
        switch phase {
        case .running:
            phase = .delivered
            return true
        case .cancelled(delivered: false):
            phase = .cancelled(delivered: true)
            return true
        case .cancelled(delivered: true), .delivered:
            return false
        }
    }

    /// Cancels and delivers at once: for a stop whose reason (a cancellation, a timeout, a refusal) is the outcome.
    /// - Returns: Whether to deliver the reason (`false` when an outcome came first), and the handle to cancel.
    @inlinable package mutating func stop() -> (deliver: Bool, handle: Handle?) {
        switch phase {
        case .running(_, let handle):
            phase = .cancelled(delivered: true)
            return (true, handle)
        case .cancelled(delivered: false):
            phase = .cancelled(delivered: true)
            return (true, nil)
        case .cancelled(delivered: true), .delivered:
            return (false, nil)
        }
    }
}

extension OnceState: Sendable where Handle: Sendable {}
extension OnceState.Phase: Sendable where Handle: Sendable {}

/// A cancel action as ``OnceState`` and ``TakeOnce`` keep it. A function stored as a generic value is converted to
/// the most general calling convention, one allocation each time it goes in; wrapped in a struct it is stored as it
/// is (the allocation gate counted one more per step of every request before).
package struct CancelAction: Sendable {
    @usableFromInline let run: @Sendable () -> Void

    @inlinable package init(_ run: @escaping @Sendable () -> Void) {
        self.run = run
    }

    @inlinable package func callAsFunction() {
        run()
    }
}

extension OnceState where Handle == CancelAction {
    /// ``attach(_:step:)`` for a cancel action.
    @inlinable package mutating func attach(_ cancel: @escaping @Sendable () -> Void, step: Int? = nil) -> Attached {
        attach(CancelAction(cancel), step: step)
    }
}
