import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Takes one sending's response body for a ``TransferPlan``: a 2xx body goes where the plan says (memory, a file, the
/// caller's stream), any other answer's body is collected in memory up to the endpoint's limit, so that it still
/// decodes as the endpoint's client error. It also keeps a file's or a stream's idle timeout, and hands the sending's
/// outcome to the pipeline once.
final class SendingReceiver: ResponseBodyReceiver {
    let plan: TransferPlan
    private let request: URLRequest
    private let uploadSize: Int64?
    private let collectLimit: Int
    /// What runs a file's or a stream's timeouts: the provider's scheduler, or real time.
    let timer: any Scheduler
    private let deliver: @Sendable (Exchange) -> Void

    enum Phase {
        case waiting
        case collecting(BodyCollector)
        case writing(FileWriter)
        case streaming(ChunkBuffer)
    }

    struct State {
        var phase = Phase.waiting
        var head: ResponseHead?
        /// Why Courier stopped the exchange (a timeout, a size limit, the caller); wins over what the transport says.
        var stopReason: Error?
        /// The transport's cancel action, and whether the sending was stopped or has ended: a stop does not deliver,
        /// the transport's end does, with the stop's reason.
        var sending = OnceState<CancelAction>()
        /// When something last arrived (at first, when the receiver was made), on ``timer``'s clock.
        var lastActivity: Duration
        /// The idle timeout's scheduled work, cancelled when the exchange ends.
        var idleTimer: ScheduledWork?
    }

    /// Internal for the timeouts (`SendingReceiver+Timeouts.swift`).
    let state: Locked<State>

    init(
        plan: TransferPlan,
        request: URLRequest,
        uploadSize: Int64?,
        collectLimit: Int,
        timer: any Scheduler,
        deliver: @escaping @Sendable (Exchange) -> Void
    ) {
        self.timer = timer
        state = Locked(State(lastActivity: timer.now))
        self.plan = plan
        self.request = request
        self.uploadSize = uploadSize
        self.collectLimit = collectLimit
        self.deliver = deliver
    }

    /// The chunks of a streamed 2xx body, once its head has arrived.
    var stream: ChunkBuffer? {
        state.withLock { state in
            if case .streaming(let buffer) = state.phase { return buffer }
            return nil
        }
    }

    // MARK: From the transport

    func receiveHead(statusCode: Int, headerFields: [String: String]) throws {
        try receiveHead(statusCode: statusCode, headerFields: headerFields, whole: false)
    }

    /// - Parameter whole: The transport answered with the whole body at once (the mocks, a step that answers without
    ///   the network, a transport that collects bodies itself): a file is then written on the calling thread, so
    ///   that a mocked download is on disk when the scheduler's `advance` that answered it returns.
    private func receiveHead(statusCode: Int, headerFields: [String: String], whole: Bool) throws {
        // Stopped already (cancelled, timed out): no file is opened, no stream handed over.
        if let reason = state.withLock({ $0.stopReason }) { throw reason }
        let url = request.url ?? URL(fileURLWithPath: "/")
        let head = ResponseHead(url: url, statusCode: statusCode, httpVersion: "HTTP/1.1", headerFields: headerFields)
        var phase = Phase.collecting(BodyCollector(limit: collectLimit))
        var offset: Int64 = 0
        var expected: Int64?
        if plan.takesBody(ofStatus: statusCode) {
            // A server answers 2xx once it has the request body: the upload is whole, whether or not the transport
            // reported its last bytes.
            if let uploadSize { plan.uploadMeter?.set(completed: uploadSize, expected: uploadSize) }
            switch plan.destination {
            case .memory:
                break
            case .file(let download):
                let writer = try download.open(
                    statusCode: statusCode,
                    headerFields: headerFields,
                    url: request.url,
                    inline: whole
                )
                offset = writer.offset
                expected = writer.expectedSize
                phase = .writing(writer)
            case .stream:
                phase = .streaming(ChunkBuffer(stop: { [weak self] in self?.stop(because: URLError(.cancelled)) }))
            }
        }
        // The announced length is read only where a size limit or progress needs it: not for a stream without
        // progress reports.
        switch phase {
        case .collecting(var body):
            expected = HeaderFields.contentLength(in: headerFields)
            try body.expect(announced: expected)
            phase = .collecting(body)
        case .streaming where plan.downloadMeter != nil:
            expected = HeaderFields.contentLength(in: headerFields)
        case .streaming, .writing, .waiting:
            break
        }
        let now = timer.now
        state.withLock { state in
            state.phase = phase
            state.head = head
            state.lastActivity = now
        }
        plan.downloadMeter?.restart(at: offset, expected: expected.map { $0 + offset })
        if case .streaming = phase {
            // The caller gets the status and headers now; the body follows through the stream.
            var exchange = Exchange(request: request, head: head)
            exchange.receiver = self
            deliver(exchange)
        }
    }

    func receive(_ part: Data, readMore: @escaping @Sendable () -> Void) throws {
        let now = timer.now
        let phase = try state.withLock { state -> Phase in
            state.lastActivity = now
            if case .collecting(var body) = state.phase {
                // Out of the state first, so that appending does not copy the body.
                state.phase = .waiting
                defer { state.phase = .collecting(body) }
                try body.append(part)
            }
            return state.phase
        }
        switch phase {
        case .waiting, .collecting:
            readMore()
        case .writing(let writer):
            try writer.write(part, then: readMore)
        case .streaming(let buffer):
            buffer.push(part, then: readMore)
        }
        plan.downloadMeter?.add(part.count)
    }

    /// What the transport delivered at the end: hands the sending's outcome to the pipeline, unless a streamed body
    /// was handed over at its head already, which then ends.
    func transportEnded(_ result: Result<TransportResponse, any Error>) {
        if case .success(let response) = result, let statusCode = response.head.statusCode, isWaiting {
            // A whole answer without a head before it: a mocked one, or a transport that collects bodies itself.
            do {
                try receiveHead(statusCode: statusCode, headerFields: response.head.headerFields, whole: true)
                if !response.body.isEmpty { try receive(response.body, readMore: {}) }
            } catch {
                state.withLock { state in
                    if state.stopReason == nil { state.stopReason = error }
                }
            }
        }
        let (first, phase, stopReason, idleTimer) = state.withLock { state in
            defer { state.idleTimer = nil }
            return (state.sending.deliver(), state.phase, state.stopReason, state.idleTimer)
        }
        idleTimer?.cancel()
        guard first else { return }
        let head: ResponseHead?
        let failure: Error?
        switch result {
        case .success(let response):
            head = response.head
            failure = stopReason
        case .failure(let error):
            head = nil
            failure = stopReason ?? error
        }
        switch phase {
        case .waiting:
            deliver(
                Exchange(
                    request: request,
                    head: failure == nil ? head : nil,
                    error: failure ?? URLError(.badServerResponse)
                )
            )
        case .collecting(let body):
            deliver(Exchange(request: request, data: failure == nil ? body.body : nil, head: head, error: failure))
        case .writing(let writer):
            writer.close { writeError in
                var exchange = Exchange(request: self.request, head: head, error: failure ?? writeError)
                exchange.receiver = self
                self.deliver(exchange)
            }
        case .streaming(let buffer):
            buffer.finish(throwing: failure)
        }
    }

    /// Stops the exchange, with `reason` as its outcome, unless it has ended.
    func stop(because reason: Error) {
        let cancel = state.withLock { state -> CancelAction? in
            guard !state.sending.isOver, state.stopReason == nil else { return nil }
            state.stopReason = reason
            return state.sending.cancel()
        }
        cancel?()
    }

    /// The sending's outcome will not reach the caller (a retry, a later failure, a cancellation): stops what is
    /// still running and leaves no file that nobody asked to keep.
    func discard() {
        stop(because: URLError(.cancelled))
        // The file itself is the download's to keep or delete, once its outcome is known: the next sending may
        // be writing it already.
        switch state.withLock({ $0.phase }) {
        case .writing(let writer): writer.close { _ in }
        case .streaming(let buffer): buffer.cancel()
        case .waiting, .collecting: break
        }
    }

    /// The file writer of a 2xx download, once its head has arrived.
    var writer: FileWriter? {
        state.withLock { state in
            if case .writing(let writer) = state.phase { return writer }
            return nil
        }
    }

    private var isWaiting: Bool {
        state.withLock { state in
            if case .waiting = state.phase { return true }
            return false
        }
    }
}
