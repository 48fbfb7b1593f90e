import Foundation

/// Server-Sent Events from an endpoint, across reconnections (see ``ApiProvider/events(on:reconnection:)``).
///
/// The first call to `next()` connects. When the stream ends or its connection is lost, the sequence waits the
/// server's last `retry` (else the policy's delay) on the policy's scheduler (or, for a policy without one, the
/// provider's) and connects again with
/// `Last-Event-ID` set to the last event ID, as browsers' `EventSource` does. It ends (returns `nil`) when the
/// server answers `204 No Content`, or when a stream ends without a reconnection policy. It throws ``ApiError``
/// for an answer other than 2xx (the HTML standard fails the connection then; a 5xx is retried under a policy),
/// and when reconnecting has failed ``EventStreamReconnection/maximumFailedAttempts`` times in a row. Cancelling
/// the reading task stops it, with ``ApiError/cancelled``.
public struct ServerSentEvents<EndpointType: Endpoint>: AsyncSequence, Sendable {
    public typealias Element = ServerSentEvent

    let provider: ApiProvider<EndpointType>
    let endpoint: EndpointType
    let reconnection: EventStreamReconnection?

    public func makeAsyncIterator() -> Iterator {
        Iterator(provider: provider, endpoint: endpoint, reconnection: reconnection)
    }

    /// Reads the next event, connecting when needed.
    public struct Iterator: AsyncIteratorProtocol {
        let provider: ApiProvider<EndpointType>
        let endpoint: EndpointType
        let reconnection: EventStreamReconnection?
        private var current: ServerSentEventChunks<EndpointType.ClientErrorType>.Iterator?
        private var lastEventId = ""
        private var reconnectionTime: Duration?
        private var failedAttempts = 0
        private var connections = 0
        private var ended = false

        init(provider: ApiProvider<EndpointType>, endpoint: EndpointType, reconnection: EventStreamReconnection?) {
            self.provider = provider
            self.endpoint = endpoint
            self.reconnection = reconnection
        }

        /// The next event, or `nil` when the stream has ended for good.
        public mutating func next() async throws -> ServerSentEvent? {
            while !ended {
                if current == nil {
                    try await connect()
                    continue
                }
                do {
                    if let event = try await current?.next() {
                        failedAttempts = 0
                        lastEventId = event.id
                        return event
                    }
                    noteStreamEnd()
                    guard reconnection != nil else { break }
                } catch let error as ApiError<EndpointType.ClientErrorType> {
                    noteStreamEnd()
                    guard reconnection != nil, Self.isConnectionFailure(error) else { throw error }
                }
                try await waitBeforeReconnecting()
            }
            ended = true
            return nil
        }

        private mutating func noteStreamEnd() {
            if let current {
                lastEventId = current.lastEventId
                if let milliseconds = current.reconnectionTime { reconnectionTime = .milliseconds(milliseconds) }
            }
            current = nil
        }

        private mutating func connect() async throws {
            connections += 1
            let headers = lastEventId.isEmpty ? [:] : ["Last-Event-ID": lastEventId]
            let accept = ["Accept": "text/event-stream", "Cache-Control": "no-cache"]
            let result = await provider.stream(
                on: endpoint,
                headers: accept.merging(headers) { $1 }
            )
            switch result {
            case .success(let streamed):
                if streamed.response.statusCode == 204 {
                    ended = true
                    return
                }
                var events = streamed.events
                events.lastEventId = lastEventId
                current = events.makeAsyncIterator()
            case .failure(let error):
                failedAttempts += 1
                guard let reconnection, Self.isConnectionFailure(error) else { throw error }
                if let maximum = reconnection.maximumFailedAttempts, failedAttempts > maximum { throw error }
                try await waitBeforeReconnecting()
            }
        }

        private func waitBeforeReconnecting() async throws {
            guard let reconnection else { return }
            try await Self.sleep(reconnectionTime ?? reconnection.delay, on: reconnection.ownScheduler ?? provider.timer)
        }

        /// A lost or refused connection, a timeout or a 5xx: worth connecting again. A 4xx or a cancellation is not.
        private static func isConnectionFailure(_ error: ApiError<EndpointType.ClientErrorType>) -> Bool {
            switch error {
            case .noResponseReceived, .serverError: true
            default: false
            }
        }

        private static func sleep(_ delay: Duration, on scheduler: any Scheduler) async throws {
            let state = Locked(Sleep())
            try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                    if let cancelled = state.withLock({ $0.continuation.put(continuation) }) {
                        return cancelled.resume(throwing: ApiError<EndpointType.ClientErrorType>.cancelled)
                    }
                    let work = scheduler.schedule(after: delay) { state.withLock { $0.continuation.take() }?.resume() }
                    if case .cancelNow(let work) = state.withLock({ $0.timer.attach(work) }) { work.cancel() }
                }
            } onCancel: {
                let (continuation, work) = state.withLock { ($0.continuation.take(), $0.timer.cancel()) }
                work?.cancel()
                continuation?.resume(throwing: ApiError<EndpointType.ClientErrorType>.cancelled)
            }
        }
    }
}

/// A wait before reconnecting: the timer and the cancel race to resume it, once.
private struct Sleep: Sendable {
    var continuation = TakeOnce<CheckedContinuation<Void, any Error>>()
    var timer = OnceState<ScheduledWork>()
}
