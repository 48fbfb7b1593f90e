import Foundation
import Testing

@testable import Courier

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The pipeline's one overall timeout, in front of a carrier that keeps no timer: proven on a `TestScheduler` with a
/// carrier that answers only when told, no sockets. The transports' and the mocks' own suites prove it end to end.
@Suite struct TimedTransportTests {
    /// A carrier that keeps each sending's completion until the test answers it, and counts cancels.
    final class HeldTransport: Transport {
        let completions = Locked<[@Sendable (Result<TransportResponse, any Error>) -> Void]>([])
        let cancels = Locked(0)
        /// Answers at once, inside `send`, when set.
        let answersAtOnce: Bool

        init(answersAtOnce: Bool = false) {
            self.answersAtOnce = answersAtOnce
        }

        func send(
            _ request: URLRequest,
            options: TransportOptions,
            completion: @escaping @Sendable (Result<TransportResponse, any Error>) -> Void
        ) -> @Sendable () -> Void {
            if answersAtOnce {
                completion(.success(TimedTransportTests.answer))
            } else {
                completions.withLock { $0.append(completion) }
            }
            return { [cancels] in cancels.withLock { $0 += 1 } }
        }

        func answer() {
            for completion in completions.withLock({ $0 }) { completion(.success(TimedTransportTests.answer)) }
        }
    }

    static let request = URLRequest(url: URL(string: "http://127.0.0.1/held")!)
    static let answer = TransportResponse(
        url: URL(string: "http://127.0.0.1/held")!,
        statusCode: 200,
        httpVersion: "HTTP/1.1",
        headerFields: [:],
        body: Data("late".utf8)
    )

    /// Sends through a gate of `timeout` over `carrier` on `scheduler`, collecting what the caller gets.
    static func send(
        over carrier: HeldTransport,
        timeout: Duration,
        on scheduler: TestScheduler,
        outcomes: Locked<[String]>
    ) -> @Sendable () -> Void {
        let gate = TimedTransport(next: carrier, timeout: timeout, receiver: nil)
        var options = TransportOptions(maximumResponseBodySize: 1 << 20)
        options.scheduler = scheduler
        return gate.send(request, options: options) { result in
            let outcome =
                switch result {
                case .success(let response): "answer \(response.head.statusCode ?? 0)"
                case .failure(let error as URLError): "\(error.code == .timedOut ? "timedOut" : "\(error.code)")"
                case .failure(let error): "\(error)"
                }
            outcomes.withLock { $0.append(outcome) }
        }
    }

    @Test func theTimeoutDeliversOnceCancelsOnceAndALateAnswerIsDropped() {
        let scheduler = TestScheduler()
        let carrier = HeldTransport()
        let outcomes = Locked<[String]>([])
        _ = Self.send(over: carrier, timeout: .seconds(30), on: scheduler, outcomes: outcomes)
        scheduler.advance(by: .seconds(29))
        #expect(outcomes.withLock { $0 }.isEmpty)
        scheduler.advance(by: .seconds(1))
        #expect(outcomes.withLock { $0 } == ["timedOut"])
        #expect(carrier.cancels.withLock { $0 } == 1)
        carrier.answer()
        #expect(outcomes.withLock { $0 } == ["timedOut"])
        #expect(scheduler.pendingWorkCount == 0)
    }

    @Test func anAnswerInTimeLeavesNoTimerBehind() {
        let scheduler = TestScheduler()
        let carrier = HeldTransport()
        let outcomes = Locked<[String]>([])
        _ = Self.send(over: carrier, timeout: .seconds(30), on: scheduler, outcomes: outcomes)
        #expect(scheduler.pendingWorkCount == 1)
        carrier.answer()
        #expect(outcomes.withLock { $0 } == ["answer 200"])
        #expect(scheduler.pendingWorkCount == 0)
        scheduler.advance(by: .seconds(60))
        #expect(outcomes.withLock { $0 } == ["answer 200"])
        #expect(carrier.cancels.withLock { $0 } == 0)
    }

    @Test func anAnswerWhileSendingArmsNoTimer() {
        let scheduler = TestScheduler()
        let carrier = HeldTransport(answersAtOnce: true)
        let outcomes = Locked<[String]>([])
        _ = Self.send(over: carrier, timeout: .seconds(30), on: scheduler, outcomes: outcomes)
        #expect(outcomes.withLock { $0 } == ["answer 200"])
        #expect(scheduler.pendingWorkCount == 0)
    }

    @Test func aCancelDeliversTheCancellationAtOnceAndEndsTheTimer() {
        let scheduler = TestScheduler()
        let carrier = HeldTransport()
        let outcomes = Locked<[String]>([])
        let cancel = Self.send(over: carrier, timeout: .seconds(30), on: scheduler, outcomes: outcomes)
        cancel()
        cancel()
        #expect(outcomes.withLock { $0 } == ["\(URLError.Code.cancelled)"])
        #expect(carrier.cancels.withLock { $0 } == 1)
        #expect(scheduler.pendingWorkCount == 0)
        carrier.answer()
        #expect(outcomes.withLock { $0 }.count == 1)
    }
}
