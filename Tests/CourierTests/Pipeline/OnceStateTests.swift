import Dispatch
import Testing

@testable import Courier

/// The one rule of cancel-before-start and deliver-once, and of the value taken once, as plain values: no sockets.
@Suite struct OnceStateTests {
    /// A handle whose release can be watched.
    final class Handle: Sendable {}

    @Test func aCancelBeforeAnyStepCancelsTheHandleThatComesLater() {
        var state = OnceState<Int>()
        let cancelledHandle = state.cancel()
        #expect(cancelledHandle == nil)
        #expect(state.isCancelled && state.isOver)
        let step = state.begin()
        #expect(step == nil)
        guard case .cancelNow(7) = state.attach(7) else {
            Issue.record("a handle that comes after the cancel is to be cancelled at once")
            return
        }
    }

    @Test func aCancelReturnsTheKeptHandleOnceAndDeliversNothing() {
        var state = OnceState<Int>()
        let step = state.begin()
        #expect(step == 1)
        guard case .kept = state.attach(3, step: step) else {
            Issue.record("the current step's handle is kept")
            return
        }
        let cancelledHandle = state.cancel()
        #expect(cancelledHandle == 3)
        let secondCancel = state.cancel()
        #expect(secondCancel == nil)
        // The cancellation is delivered by whoever ends the operation, once.
        let firstDelivery = state.deliver()
        #expect(firstDelivery)
        let secondDelivery = state.deliver()
        #expect(!secondDelivery)
        #expect(state.isCancelled)
    }

    @Test func aHandleOfAStepThatIsOverIsDropped() {
        var state = OnceState<String>()
        let first = state.begin()
        let second = state.begin()
        #expect(first == 1 && second == 2)
        guard case .kept = state.attach("second", step: second) else {
            Issue.record("the current step's handle is kept")
            return
        }
        // The first step's handle came back late, after the second began: it does not replace the second's.
        guard case .dropped = state.attach("first", step: first) else {
            Issue.record("a late handle of an earlier step is dropped")
            return
        }
        let cancelledHandle = state.cancel()
        #expect(cancelledHandle == "second")
    }

    @Test func anOutcomeDeliveredFirstMakesLaterCancelsAndHandlesNoOps() {
        var state = OnceState<Int>()
        _ = state.begin()
        let delivered = state.deliver()
        #expect(delivered)
        #expect(state.isOver && !state.isCancelled)
        let cancelledHandle = state.cancel()
        #expect(cancelledHandle == nil)
        let stopDelivers = state.stop().deliver
        #expect(stopDelivers == false)
        guard case .dropped = state.attach(1) else {
            Issue.record("a handle after the outcome is let go")
            return
        }
        let deliveredAgain = state.deliver()
        #expect(!deliveredAgain)
    }

    @Test func aStopDeliversItsReasonOnceAndReturnsTheHandle() {
        var state = OnceState<Int>()
        _ = state.attach(9)
        let stop = state.stop()
        #expect(stop.deliver && stop.handle == 9)
        let deliveredAgain = state.deliver()
        #expect(!deliveredAgain)
        let again = state.stop()
        #expect(!again.deliver && again.handle == nil)
    }

    @Test func aStopAfterACancelDeliversWithoutCancellingTwice() {
        var state = OnceState<Int>()
        _ = state.attach(5)
        let cancelledHandle = state.cancel()
        #expect(cancelledHandle == 5)
        let stop = state.stop()
        #expect(stop.deliver && stop.handle == nil)
        let deliveredAgain = state.deliver()
        #expect(!deliveredAgain)
    }

    @Test func theHandleIsLetGoOnceDeliveredOrCancelled() {
        for end in ["deliver", "cancel", "stop"] {
            var state = OnceState<Handle>()
            weak var released: Handle?
            do {
                let handle = Handle()
                released = handle
                _ = state.attach(handle)
            }
            #expect(released != nil)
            switch end {
            case "deliver": _ = state.deliver()
            case "cancel": _ = state.cancel()
            default: _ = state.stop()
            }
            #expect(released == nil, "after \(end)")
        }
    }

    @Test func aValueIsTakenOnceAndOneThatComesAfterTheTakeIsHandedBack() {
        do {
            var waiting = TakeOnce<Int>()
            let handedBack = waiting.put(1)
            #expect(handedBack == nil)
            let taken = waiting.take()
            #expect(taken == 1)
            let takenAgain = waiting.take()
            #expect(takenAgain == nil)
        }
        do {
            var cancelledFirst = TakeOnce<Int>()
            let taken = cancelledFirst.take()
            #expect(taken == nil)
            // The taker came before the value: whoever brings it must act on it now.
            let handedBack = cancelledFirst.put(2)
            #expect(handedBack == 2)
            let takenAgain = cancelledFirst.take()
            #expect(takenAgain == nil)
        }
        do {
            var made = TakeOnce(3)
            let taken = made.take()
            #expect(taken == 3)
            let takenAgain = made.take()
            #expect(takenAgain == nil)
        }
    }

    @Test func racingAnswersCancelsAndStopsDeliverExactlyOnce() {
        for _ in 0..<200 {
            let state = Locked(OnceState<Int>())
            _ = state.withLock { $0.attach(42) }
            let delivered = Locked(0)
            let handles = Locked(0)
            DispatchQueue.concurrentPerform(iterations: 6) { index in
                switch index % 3 {
                case 0:
                    if state.withLock({ $0.deliver() }) { delivered.withLock { $0 += 1 } }
                case 1:
                    let stop = state.withLock { $0.stop() }
                    if stop.deliver { delivered.withLock { $0 += 1 } }
                    if stop.handle != nil { handles.withLock { $0 += 1 } }
                default:
                    if state.withLock({ $0.cancel() }) != nil { handles.withLock { $0 += 1 } }
                }
            }
            // Two deliveries and two stops are tried whatever wins: exactly one of them delivers, a cancellation
            // included; the handle is cancelled at most once, and not at all when the answer came first.
            #expect(delivered.withLock { $0 } == 1)
            #expect(handles.withLock { $0 } <= 1)
            #expect(state.withLock { $0.isOver })
        }
    }
}
