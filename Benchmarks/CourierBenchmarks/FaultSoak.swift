#if AsyncHTTPClient && OpenAPI
import AsyncHTTPClient
import Courier
import CourierAsyncHTTPClient
import CourierTestServer
import Foundation
import Logging

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Many requests at once through a provider with retry, token refresh and logging plugins, against the hostile
/// server, with faults, cancellations, timeouts and uploads mixed in by a seeded generator. Every call must complete
/// exactly once with the outcome its fault implies, and afterwards nothing may be left: descriptors, temporary files,
/// memory, requests in flight.
enum FaultSoak {
    /// What one request does.
    enum Kind: Hashable, CustomStringConvertible {
        case fault(Fault)
        /// A request to a silent server, cancelled by its handle a moment after it starts.
        case cancel

        var description: String {
            switch self {
            case .fault(let fault): fault.rawValue
            case .cancel: "cancel"
            }
        }
    }

    /// How often each kind is drawn, out of the sum, on `transport`: every kind it survives.
    static func weights(on transport: FaultTable.Transport) -> [(Kind, Int)] {
        let rare: [Fault: Int] = [
            .answerBeforeBody: 3, .megabyteOfHeaders: 5, .endlessHeader: 5, .none: 300, .staleToken: 100,
        ]
        return [(.cancel, 40)]
            + Fault.allCases.filter { !FaultTable.accepted($0, on: transport).isEmpty }.map {
                (.fault($0), rare[$0] ?? 30)
            }
    }

    /// The kinds that are also sent as multipart uploads, which Courier writes to temporary files: an answer and a
    /// replay after a refreshed token on every transport; over AsyncHTTPClient and libcurl also cancels, silences,
    /// drips, refused connections and corrupted gzip bodies.
    ///
    /// Not those over URLSession yet: with them, a token's replay over URLSession once waited out its 15 s timeout at
    /// 20,000 requests (seed 524903), which was most likely FoundationNetworking's stalled upload (see
    /// ``stalledByFoundationNetworking(_:_:on:)``). And on no transport the close-delimited answer:
    /// with an upload, AsyncHTTPClient reports most of them as a lost connection.
    static func uploading(on transport: FaultTable.Transport) -> Set<Kind> {
        let answered: Set<Kind> = [.fault(.none), .fault(.staleToken)]
        guard transport != .urlSession else { return answered }
        return answered.union([.cancel, .fault(.silence), .fault(.drip), .fault(.refuse), .fault(.corruptGzip)])
    }

    /// The timeout of every call that is not meant to time out: a hang detector, not a measure of speed. Over
    /// URLSession a call waits for one of six connections behind up to 255 others, and under load that took up to
    /// 5 s per sending (45 runs on a busy two-core machine), so a call with a retry or a token's replay can take twice
    /// that, and a slower or busier machine more: the old 15 s timed such calls out. How long the slowest call took is
    /// printed instead; only a call that nothing ends within a minute fails the round.
    static let hangGuard: Duration = .seconds(60)

    /// The file that multipart uploads send, in the soak's own temporary directory.
    static let uploadFile = FileManager.default.temporaryDirectory.appendingPathComponent(
        "courier-soak-upload-\(ProcessInfo.processInfo.processIdentifier).bin"
    )

    /// Runs the soak on every transport; `false` when any check failed.
    static func run(requests: Int, inFlight: Int, seed: UInt64) async throws -> Bool {
        print("fault soak: \(requests) requests per transport, \(inFlight) in flight, seed \(seed)")
        // Courier writes its temporary files where `TMPDIR` says, and they are counted in a directory of this
        // process's own: in the shared one, the `courier-multipart-` files of a test suite or of another soak running
        // at the same time were counted as this round's leftovers. First, before anything reads the variable.
        let temporary = FileManager.default.temporaryDirectory.appendingPathComponent(
            "courier-soak-\(ProcessInfo.processInfo.processIdentifier)",
            isDirectory: true
        )
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
        setenv("TMPDIR", temporary.path, 1)
        defer { try? FileManager.default.removeItem(at: temporary) }
        #if os(Linux)
        // At most two malloc arenas, before the many threads of the transports start: glibc gives threads arenas
        // of their own (up to 8 per core), keeps what they once held, and resident memory would then show how busy
        // the soak's busiest moment was rather than what it left behind.
        _ = mallopt(-8 /* M_ARENA_MAX */, 2)
        // Fixed thresholds: by default, freeing a large block raises them, up to 32 MiB and 64 MiB, and a thread's
        // arena then keeps that much free memory at its top, which `malloc_trim` does not return for any arena but
        // the main one. Resident memory swung by 10 MiB from run to run with them, whatever the round left.
        _ = mallopt(-3 /* M_MMAP_THRESHOLD */, 128 << 10)
        _ = mallopt(-1 /* M_TRIM_THRESHOLD */, 128 << 10)
        #endif
        // The server runs in a process of its own, so that what is counted here is the client's alone.
        let (child, server) = try HostileAddress.startChild()
        defer { child.terminate() }
        // The file part of the soak's multipart uploads, each of which Courier writes to a temporary file of its own
        // that must be gone afterwards.
        try Data(repeating: 0x61, count: 4 << 10).write(to: uploadFile)
        defer { try? FileManager.default.removeItem(at: uploadFile) }
        var passed = true
        for transport in [FaultTable.Transport.urlSession, .asyncHTTPClient, .curl] {
            // A first round of the same size, on a provider of its own, loads what a process loads once and keeps
            // (threads, libcurl, NIO's event loops, allocator arenas sized by the busiest moment).
            _ = try await roundOnItsOwnProvider(
                transport,
                requests: requests,
                inFlight: inFlight,
                seed: seed &+ 1,
                server
            )
            try await settle()
            let before = Snapshot.now()
            // The measured round's provider is let go of before the count, as an app lets go of a client: what its
            // connection pool kept is closed then, and whatever is still open or held, the round leaked.
            let report = try await roundOnItsOwnProvider(
                transport,
                requests: requests,
                inFlight: inFlight,
                seed: seed,
                server
            )
            try await settle(downTo: before.descriptors)
            let after = Snapshot.now()
            passed = report.print(transport: transport, before: before, after: after) && passed
        }
        return passed
    }

    /// One round through a provider made for it, shut down and let go of before this returns.
    private static func roundOnItsOwnProvider(
        _ transport: FaultTable.Transport,
        requests: Int,
        inFlight: Int,
        seed: UInt64,
        _ server: HostileAddress
    ) async throws -> Report {
        let rig = Rig(transport)
        let report = await round(requests: requests, inFlight: inFlight, seed: seed, rig, server)
        try await rig.shutdown()
        return report
    }

    /// Waits for a transport that was let go of to close what it held, which a session's invalidation and a client's
    /// shutdown finish a moment later (FoundationNetworking takes seconds over a cancelled task): until the
    /// descriptors are down to `count`, or, without one, have not changed for two seconds; thirty seconds at most.
    static func settle(downTo count: Int? = nil) async throws {
        let deadline = ContinuousClock.now + .seconds(30)
        var last = Snapshot.descriptorCount()
        var unchanged = 0
        while last > (count ?? 0), count != nil || unchanged < 20, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(100))
            let now = Snapshot.descriptorCount()
            unchanged = now == last ? unchanged + 1 : 0
            last = now
        }
    }

    /// What the process holds: open descriptors, resident memory, Courier's temporary files.
    struct Snapshot {
        let descriptors: Int
        let descriptorTargets: [String]
        let residentBytes: Int
        let temporaryFiles: Int

        static func descriptorCount() -> Int {
            (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? 0
        }

        static func now() -> Snapshot {
            // Freed heap goes back to the system first, so that resident memory counts what is still held rather than
            // what glibc's allocator keeps cached from the busiest moment.
            #if os(Linux)
            _ = mallocTrim(0)
            #endif
            let temporary = (try? FileManager.default.contentsOfDirectory(atPath: NSTemporaryDirectory())) ?? []
            let fds = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
            return Snapshot(
                descriptors: fds.count,
                descriptorTargets: fds.map {
                    (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + $0)) ?? "?"
                },
                residentBytes: Measure.procStatus("VmRSS"),
                temporaryFiles: temporary.filter { $0.hasPrefix("courier-multipart-") }.count
            )
        }
    }

    struct Report {
        var requests = 0
        var uploads = 0
        var byKind: [Kind: Int] = [:]
        var mismatches: [String] = []
        /// Calls over URLSession that FoundationNetworking left hanging until ``hangGuard`` ended them (see
        /// ``stalledByFoundationNetworking(_:_:on:)``).
        var stalledCalls: [String] = []
        var completedTwice = 0
        var neverCompleted = 0
        var stillShown = 0
        var refreshes = 0
        var logLines = 0
        var seconds = 0.0
        /// How long the slowest call took and which it was (with its sendings), how long the 99th percentile took,
        /// and how many took more than 15 s, the timeout these calls had before ``hangGuard``.
        var slowest: Duration = .zero
        var slowestCall = ""
        var percentile99: Duration = .zero
        var overFifteenSeconds = 0

        func print(transport: FaultTable.Transport, before: Snapshot, after: Snapshot) -> Bool {
            let grownMemory = after.residentBytes - before.residentBytes
            var failures = mismatches.prefix(5).map { "wrong outcome: \($0)" }
            if mismatches.count > 5 { failures.append("… \(mismatches.count - 5) more wrong outcomes") }
            // FoundationNetworking's stalls are rare (1 upload in about 30,000 through Courier, 1 close-delimited
            // answer in some 150,000 calls); more than one call in a thousand would be calls that hang for another
            // reason.
            if stalledCalls.count * 1_000 > requests {
                failures.append("\(stalledCalls.count) calls ended by the hang guard: \(stalledCalls.prefix(3))")
            }
            if completedTwice > 0 { failures.append("\(completedTwice) requests completed more than once") }
            if neverCompleted > 0 { failures.append("\(neverCompleted) requests never completed") }
            if stillShown > 0 { failures.append("\(stillShown) requests still in flight for the plugins") }
            if after.descriptors > before.descriptors {
                var added = after.descriptorTargets
                for target in before.descriptorTargets { added.firstIndex(of: target).map { _ = added.remove(at: $0) } }
                failures.append("descriptors grew: \(added)")
            }
            if after.temporaryFiles > before.temporaryFiles { failures.append("temporary files were left") }
            if grownMemory > 10 << 20 { failures.append("resident memory grew by more than 10 MB") }
            let stalled = stalledCalls.isEmpty ? "" : " (\(stalledCalls.prefix(3).joined(separator: "; ")))"
            let kinds = byKind.sorted { $0.key.description < $1.key.description }.map { "\($0.key) \($0.value)" }
                .joined(separator: ", ")
            Swift.print(
                """
                \(transport): \(requests) requests in \(String(format: "%.1f", seconds)) s, \
                \(mismatches.isEmpty ? "every" : "not every") outcome as its fault implies, \(refreshes) token refreshes, \
                \(logLines) log lines
                  by kind: \(kinds); \(uploads) with a multipart upload
                  descriptors \(before.descriptors) → \(after.descriptors), \
                resident memory \(before.residentBytes >> 20) → \(after.residentBytes >> 20) MiB, \
                temporary files \(before.temporaryFiles) → \(after.temporaryFiles), \
                completed twice \(completedTwice), never \(neverCompleted), in flight \(stillShown), \
                stalled by FoundationNetworking \(stalledCalls.count)\(stalled)
                  slowest call \(String(format: "%.1f", slowest.seconds)) s (\(slowestCall)), 99th percentile \
                \(String(format: "%.1f", percentile99.seconds)) s, \(overFifteenSeconds) over 15 s
                  \(failures.isEmpty ? "passed" : "FAILED: " + failures.joined(separator: "; "))
                """
            )
            return failures.isEmpty
        }
    }

    /// One provider with retry, token refresh, logging and activity plugins, on one transport, for one round.
    final class Rig: Sendable {
        let provider: ApiProvider<SoakApi>
        let auth: TokenRefreshPlugin<SoakApi>
        let tally = Tally()
        let attempts = AttemptLog()
        let transport: FaultTable.Transport
        private let client: HTTPClient?

        init(_ transport: FaultTable.Transport) {
            self.transport = transport
            let tally = tally
            auth = TokenRefreshPlugin<SoakApi>(token: "stale") { _ in
                tally.count(\.refreshes)
                return "fresh"
            }
            let logger = Logger(label: "soak") { _ in CountingLogHandler(tally: tally) }
            let plugins: [Plugin<SoakApi>] = [
                auth,
                RetryPlugin(
                    policy: RetryPolicy(maximumAttempts: 2, initialDelay: .milliseconds(1), jitter: 0),
                    randomFraction: { 0 }
                ),
                RequestLoggerPlugin(logger: logger),
                ResponseLoggerPlugin(logger: logger),
                ProgressIndicatorPlugin(
                    showIndicator: { tally.count(\.shown) },
                    hideIndicator: { tally.count(\.hidden) }
                ),
                // Last, nearest the network: it sees every sending's answer as it came.
                attempts,
            ]
            client =
                transport == .asyncHTTPClient
                ? HTTPClient(eventLoopGroupProvider: .singleton, configuration: FaultSoak.soakClientConfiguration())
                : nil
            let carrier: any Transport =
                switch transport {
                case .asyncHTTPClient: AsyncHTTPClientTransport(client: client ?? .shared)
                case .curl: CurlTransport()
                case .urlSession: URLSessionTransport()
                }
            provider = ApiProvider<SoakApi>(plugins: plugins, transport: carrier)
        }

        /// Shuts the AsyncHTTPClient client down; a URLSession transport is invalidated when the rig is let go of.
        func shutdown() async throws { try await client?.shutdown() }
    }

    /// Sends `requests` requests through `rig`, `inFlight` at a time, and reports how each ended.
    private static func round(
        requests: Int,
        inFlight: Int,
        seed: UInt64,
        _ rig: Rig,
        _ server: HostileAddress
    ) async -> Report {
        var generator = SplitMix64(seed: seed)
        let weights = weights(on: rig.transport)
        let kinds = (0..<requests).map { _ in draw(from: weights, using: &generator) }
        let cancelDelays = kinds.map { _ in Duration.milliseconds(Int(generator.next() % 50) + 1) }
        // One in four requests of the kinds in `uploading(on:)` sends a multipart body with a file part.
        let uploading = uploading(on: rig.transport)
        let uploads = kinds.map { kind in generator.next() % 4 == 0 && uploading.contains(kind) }
        let counters = Counters(requests: requests)
        let start = ContinuousClock.now
        await withTaskGroup(of: Void.self) { race in
            race.addTask {
                await withTaskGroup(of: Void.self) { group in
                    for index in 0..<requests {
                        if index >= inFlight { await group.next() }
                        // Given up on: the calls not sent yet are not sent, so that the report comes.
                        if counters.hasGivenUp { break }
                        // Now and then the token goes stale again, so that refreshes keep happening under load.
                        if index % 1_000 == 999 { rig.auth.setToken("stale") }
                        group.addTask {
                            await send(
                                index,
                                kinds[index],
                                uploading: uploads[index],
                                cancelAfter: cancelDelays[index],
                                rig.provider,
                                server,
                                counters
                            )
                        }
                    }
                }
            }
            // A call that never completes must not hang the soak: after the limit, its wait ends and it is counted.
            race.addTask {
                try? await Task.sleep(for: .seconds(120) + .milliseconds(requests * 10))
                if !Task.isCancelled { counters.giveUp() }
            }
            await race.next()
            race.cancelAll()
        }
        // A second completion would come after the first: give it a moment to show.
        try? await Task.sleep(for: .milliseconds(500))
        var report = counters.report(kinds: kinds, uploads: uploads, transport: rig.transport, attempts: rig.attempts)
        report.uploads = uploads.filter { $0 }.count
        let tally = rig.tally.values
        report.stillShown = tally.shown - tally.hidden
        report.refreshes = tally.refreshes
        report.logLines = tally.logLines
        report.seconds = Double((ContinuousClock.now - start).components.seconds)
        return report
    }

    /// What the plugins report over a rig's round.
    final class Tally: @unchecked Sendable {
        struct Values {
            var shown = 0
            var hidden = 0
            var refreshes = 0
            var logLines = 0
        }

        private let lock = NSLock()
        private var state = Values()

        var values: Values { lock.withLock { state } }

        func count(_ field: WritableKeyPath<Values, Int>) { lock.withLock { state[keyPath: field] += 1 } }
    }

    static func soakClientConfiguration() -> HTTPClient.Configuration {
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool.retryConnectionEstablishment = false
        configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = 256
        // Idle connections close after a second, so that the descriptors a round leaves are its leaks, not its pool.
        configuration.connectionPool.idleTimeout = .seconds(1)
        return configuration
    }

    private static func send(
        _ index: Int,
        _ kind: Kind,
        uploading: Bool,
        cancelAfter delay: Duration,
        _ provider: ApiProvider<SoakApi>,
        _ server: HostileAddress,
        _ counters: Counters
    ) async {
        let endpoint: SoakApi
        switch kind {
        case .fault(let fault):
            endpoint = SoakApi(index: index, fault: fault, baseUrl: server.baseUrl(for: fault), uploading: uploading)
        case .cancel:
            endpoint = SoakApi(
                index: index,
                fault: .silence,
                baseUrl: server.baseUrl(for: .silence),
                timeout: .seconds(5),
                uploading: uploading
            )
        }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            counters.wait(index, continuation)
            let request = provider.performRequest(on: endpoint, decodeBodyTo: [Int].self) { result in
                var detail = "\(result)"
                if case .failure(.noResponseReceived(let error?)) = result {
                    detail += " \((error as NSError).userInfo)"
                }
                counters.complete(index, with: FaultOutcome(result), detail: detail)
            }
            if kind == .cancel {
                Task {
                    try? await Task.sleep(for: delay)
                    request.cancel()
                }
            }
        }
    }

    /// Whether `outcome`, not one `kind` may end with, is a call over URLSession that the hang guard ended. Under
    /// this load FoundationNetworking (libcurl 7.88) now and then sends a request's head and never its body: the
    /// connection stays open with nothing queued on either side, the server waits for the announced body, and only
    /// the timeout ends the call. Raw URLSession, without Courier, does it too: with this mix at 256 in flight and a
    /// quarter of `none` and `staleToken` sent as uploads, 13 of 8,278 uploads from a file and 14 of 10,462 uploads of
    /// `Data` stalled, and not one of about 160,000 calls without a body; with uploads beside one kind of fault at a
    /// time, none did. Through Courier, 1 of about 30,000 uploads (60 rounds). Once, in CI (2026-11-27, seed 509606,
    /// not again with the same seed), a close-delimited answer without an upload hung the same way: FoundationNetworking
    /// missed the server's close. Counted apart, and tolerated up to one call in a thousand.
    static func stalledByFoundationNetworking(
        _ kind: Kind,
        _ outcome: FaultOutcome,
        on transport: FaultTable.Transport
    ) -> Bool {
        transport == .urlSession && outcome == .noResponse(.timedOut) && kind != .cancel
    }

    /// What `kind` must end with through this soak's plugins, sent with a multipart upload or not. A timeout is
    /// never among them but where the fault is one that never ends (`silence`, `drip`): any other call that ends by
    /// its timeout hung for a minute (see ``hangGuard``).
    static func accepted(_ kind: Kind, uploading: Bool, on transport: FaultTable.Transport) -> [FaultOutcome] {
        switch kind {
        case .cancel: [.cancelled]
        // The token plugin refreshes and replays: the caller never sees the 401. (Its upload, see below.)
        case .fault(.staleToken):
            [.value([1, 2, 3])]
                + (transport != .asyncHTTPClient && uploading ? [.noResponse(.networkConnectionLost)] : [])
        // The server answers once it has read the whole upload, and closes the connection. AsyncHTTPClient finishes a
        // request only once the end of its body has been taken as well, and a close that comes before fails it with
        // `HTTPClientError.remoteConnectionClosed`, whole answer or not: a few uploads in a thousand. Without an
        // upload, the answer always arrives.
        case .fault(.corruptGzip) where uploading && transport == .asyncHTTPClient:
            FaultTable.accepted(.corruptGzip, on: transport) + [.noResponse(.networkConnectionLost)]
        // Under this load libcurl now and then fails a body's sending on a connection that died under it ("Send
        // failure: Connection reset by peer" on `answerBeforeBody`'s 4 MiB, 0.17 s in, before it had read the early
        // 413; "Send failure: Broken pipe" on a `none` upload, 1.1 s in): about one round in 20 at CI size for each, as
        // in CI's runs. Never alone: 1,000 `answerBeforeBody` uploads, 64 at a time, caused no reset (`nstat`), and the
        // server does not close these connections itself. Where the close or reset comes from is not known; libcurl
        // sends a `GET` on a connection that turns out dead again on a new one, but not a `POST` whose body failed.
        case .fault(let fault) where transport != .asyncHTTPClient && (uploading || fault == .answerBeforeBody):
            FaultTable.accepted(fault, on: transport) + [.noResponse(.networkConnectionLost)]
        case .fault(let fault):
            FaultTable.accepted(fault, on: transport)
                + (transport != .asyncHTTPClient && malformed.contains(fault)
                    ? [.noResponse(.networkConnectionLost)] : [])
        }
    }

    /// Answers libcurl refuses with the connection closed or reset right after (by the server, or by the server's
    /// writing on after libcurl gave up): under load, libcurl now and then sees the close or reset before it has
    /// parsed what came before it, and reports a lost connection.
    private static let malformed: Set<Fault> = [
        .conflictingContentLengths, .contentLengthWithChunked, .invalidChunkSize, .malformedStatusLine,
        .invalidHeaderBytes, .megabyteOfHeaders, .endlessHeader, .corruptGzip,
    ]

    private static func draw(from weights: [(Kind, Int)], using generator: inout SplitMix64) -> Kind {
        let total = weights.reduce(0) { $0 + $1.1 }
        var pick = Int(generator.next() % UInt64(total))
        for (kind, weight) in weights {
            if pick < weight { return kind }
            pick -= weight
        }
        return .fault(.none)
    }

    /// The soak's endpoint: like the tests' fault endpoint, with short timeouts for the faults that never end.
    struct SoakApi: Endpoint {
        typealias ClientErrorType = FaultMessage
        /// The call's number in the round, which the attempt log files its sendings under.
        let index: Int
        let fault: Fault
        let baseUrl: URL
        var timeout: Duration? = nil
        let uploading: Bool

        /// Calls time out after ``hangGuard``, or 300 ms for the faults that never end, which this timeout ends.
        init(index: Int, fault: Fault, baseUrl: URL, timeout: Duration? = nil, uploading: Bool = false) {
            self.index = index
            self.fault = fault
            self.baseUrl = baseUrl
            self.uploading = uploading
            self.timeout = timeout ?? (fault == .silence || fault == .drip ? .milliseconds(300) : FaultSoak.hangGuard)
        }

        var subpath: String { fault.path }
        var method: HttpMethod {
            if fault == .answerBeforeBody {
                return .post(body: .data(Data(count: 4 << 20), contentType: "application/octet-stream"))
            }
            guard uploading else { return .get }
            return .post(
                body: .multipart([.text(name: "fault", value: fault.rawValue), .file(name: "file", url: uploadFile)])
            )
        }
    }

    /// Counts, under one lock, what the soak's callbacks report from many threads.
    final class Counters: @unchecked Sendable {
        private let lock = NSLock()
        private var completions: [Int]
        private var outcomes: [FaultOutcome?]
        private var details: [String]
        /// When each call was handed to the provider, and how long it took to its first completion.
        private var starts: [ContinuousClock.Instant?]
        private var durations: [Duration?]
        private var waits: [Int: CheckedContinuation<Void, Never>] = [:]
        private var gaveUp = false

        init(requests: Int) {
            completions = Array(repeating: 0, count: requests)
            outcomes = Array(repeating: nil, count: requests)
            details = Array(repeating: "", count: requests)
            starts = Array(repeating: nil, count: requests)
            durations = Array(repeating: nil, count: requests)
        }

        /// Keeps the wait of `index`, to end at its first completion or when the soak gives up.
        func wait(_ index: Int, _ continuation: CheckedContinuation<Void, Never>) {
            let late = lock.withLock {
                if !gaveUp { waits[index] = continuation }
                starts[index] = .now
                return gaveUp
            }
            if late { continuation.resume() }
        }

        /// Records a completion, and ends the wait at the first.
        func complete(_ index: Int, with outcome: FaultOutcome, detail: String) {
            let wait: CheckedContinuation<Void, Never>? = lock.withLock {
                completions[index] += 1
                if completions[index] == 1 {
                    outcomes[index] = outcome
                    details[index] = detail
                    durations[index] = starts[index].map { .now - $0 }
                }
                defer { waits[index] = nil }
                return waits[index]
            }
            wait?.resume()
        }

        /// Ends every wait still open, and every wait registered from now on; their calls count as never completed.
        func giveUp() {
            let open: [CheckedContinuation<Void, Never>] = lock.withLock {
                gaveUp = true
                defer { waits = [:] }
                return Array(waits.values)
            }
            for wait in open { wait.resume() }
        }

        var hasGivenUp: Bool { lock.withLock { gaveUp } }

        func report(kinds: [Kind], uploads: [Bool], transport: FaultTable.Transport, attempts: AttemptLog) -> Report {
            lock.withLock {
                var report = Report()
                report.requests = kinds.count
                let sorted = durations.compactMap { $0 }.sorted()
                if !sorted.isEmpty { report.percentile99 = sorted[min(sorted.count - 1, sorted.count * 99 / 100)] }
                for (index, kind) in kinds.enumerated() {
                    report.byKind[kind, default: 0] += 1
                    if completions[index] > 1 { report.completedTwice += 1 }
                    guard let outcome = outcomes[index] else {
                        report.neverCompleted += 1
                        continue
                    }
                    let call = "request \(index), \(kind)\(uploads[index] ? " with an upload" : "")"
                    if let duration = durations[index] {
                        if duration > .seconds(15) { report.overFifteenSeconds += 1 }
                        if duration > report.slowest {
                            report.slowest = duration
                            report.slowestCall = "\(call): \(outcome); \(attempts.history(of: index))"
                        }
                    }
                    let uploading = uploads[index]
                    if FaultSoak.accepted(kind, uploading: uploading, on: transport).contains(outcome) {
                        continue
                    } else if FaultSoak.stalledByFoundationNetworking(kind, outcome, on: transport) {
                        report.stalledCalls.append("\(call): \(attempts.history(of: index))")
                    } else {
                        report.mismatches.append(
                            "\(call): \(outcome) (\(details[index].prefix(600))); \(attempts.history(of: index))"
                        )
                    }
                }
                return report
            }
        }
    }

    /// Notes each sending of each call, what came back and how long it took, so that a wrong outcome or the slowest
    /// call can be told: a retry after a lost connection, a replay after a refresh, a sending that waited.
    final class AttemptLog: Plugin<SoakApi>, @unchecked Sendable {
        private let lock = NSLock()
        private var sendings: [Int: [String]] = [:]

        override func process(_ attempt: Attempt, endpoint: SoakApi) async -> AttemptDecision {
            let answer =
                if let response = attempt.response {
                    "\(response.statusCode)"
                } else if let error = attempt.error as? URLError {
                    FaultOutcome.noResponse(error.code).tableCell
                } else {
                    attempt.error.map { "\($0)" } ?? "nothing"
                }
            let seconds = String(format: "%.2f", attempt.duration.seconds)
            let line = "sending \(attempt.number): \(answer) after \(seconds) s"
            lock.withLock { sendings[endpoint.index, default: []].append(line) }
            return .proceed
        }

        /// The sendings of call `index`, in the order their answers came.
        func history(of index: Int) -> String {
            let lines = lock.withLock { sendings[index] ?? [] }
            return lines.isEmpty ? "no sending answered" : lines.joined(separator: ", ")
        }
    }

    /// Counts the log lines the logging plugin writes, and writes none.
    struct CountingLogHandler: LogHandler {
        let tally: Tally
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .debug

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) { tally.count(\.logLines) }
    }
}

/// Where a hostile server in a child process (this executable's `serve-hostile` mode) listens.
struct HostileAddress: Sendable {
    let baseUrl: URL
    let refusedBaseUrl: URL

    func baseUrl(for fault: Fault) -> URL { fault == .refuse ? refusedBaseUrl : baseUrl }

    /// Starts the child and reads its line `hostile <port> <refused port>`.
    static func startChild() throws -> (Process, HostileAddress) {
        let (process, line) = try Measure.startChild(["serve-hostile"])
        let words = line.split(whereSeparator: \.isWhitespace)
        guard words.count == 3, let base = URL(string: "http://127.0.0.1:\(words[1])"),
            let refused = URL(string: "http://127.0.0.1:\(words[2])")
        else {
            process.terminate()
            throw BenchmarkError.serverDidNotStart(line)
        }
        return (process, HostileAddress(baseUrl: base, refusedBaseUrl: refused))
    }
}

extension Duration {
    /// The duration in seconds, as a `Double`.
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}

/// A small, fast generator whose sequence a seed fixes (Steele, Lea and Flood's SplitMix64).
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }
}

#if os(Linux)
/// glibc's `malloc_trim`, which Swift's Glibc module does not export.
@_silgen_name("malloc_trim")
func mallocTrim(_ pad: Int) -> Int32

/// glibc's `mallopt`.
@_silgen_name("mallopt")
func mallopt(_ parameter: Int32, _ value: Int32) -> Int32
#endif
#endif
