import AsyncHTTPClient
import Courier
import CourierAsyncHTTPClient
import CourierTestServer
import Foundation
import Logging

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Many requests at once through one provider with retry, token refresh and logging plugins, against the hostile
/// server, with faults, cancellations and timeouts mixed in by a seeded generator. Every call must complete exactly
/// once with the outcome its fault implies, and afterwards nothing may be left: descriptors, temporary files,
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

    /// How often each kind is drawn, out of the sum.
    static let weights: [(Kind, Int)] =
        [(.fault(.none), 300), (.fault(.staleToken), 100), (.cancel, 40)]
        + Fault.allCases.filter {
            ![.none, .staleToken, .answerBeforeBody, .megabyteOfHeaders, .endlessHeader].contains($0)
        }
        .map { (.fault($0), 30) }
        + [(.fault(.answerBeforeBody), 3), (.fault(.megabyteOfHeaders), 5), (.fault(.endlessHeader), 5)]

    /// Runs the soak on both transports; `false` when any check failed.
    static func run(requests: Int, inFlight: Int, seed: UInt64) async throws -> Bool {
        print("fault soak: \(requests) requests per transport, \(inFlight) in flight, seed \(seed)")
        let server = try await HostileServer.start()
        var passed = true
        for transport in [FaultTable.Transport.urlSession, .asyncHTTPClient] {
            // A first round of the same size loads what a process loads once and keeps (threads, libcurl, NIO's event
            // loops, caches sized by the busiest moment), so that the second shows what each round leaves behind.
            _ = try await round(requests: requests, inFlight: inFlight, seed: seed &+ 1, transport, server)
            let before = Snapshot.now()
            let report = try await round(requests: requests, inFlight: inFlight, seed: seed, transport, server)
            // The server's side of every connection is closed once the client has let go of it.
            let deadline = ContinuousClock.now + .seconds(10)
            while server.openConnections > 0, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(50))
            }
            let after = Snapshot.now()
            passed = report.print(transport: transport, before: before, after: after, server: server) && passed
        }
        try await server.stop()
        return passed
    }

    /// What the process holds: open descriptors, resident memory, Courier's temporary files.
    struct Snapshot {
        let descriptors: Int
        let descriptorTargets: [String]
        let residentBytes: Int
        let temporaryFiles: Int

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
                temporaryFiles: temporary.filter { $0.hasPrefix("courier-") }.count
            )
        }
    }

    struct Report {
        var requests = 0
        var byKind: [Kind: Int] = [:]
        var mismatches: [String] = []
        var completedTwice = 0
        var neverCompleted = 0
        var stillShown = 0
        var refreshes = 0
        var logLines = 0
        var seconds = 0.0

        func print(transport: FaultTable.Transport, before: Snapshot, after: Snapshot, server: HostileServer) -> Bool {
            let grownMemory = after.residentBytes - before.residentBytes
            var failures = mismatches.prefix(5).map { "wrong outcome: \($0)" }
            if mismatches.count > 5 { failures.append("… \(mismatches.count - 5) more wrong outcomes") }
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
            if server.openConnections > 0 { failures.append("\(server.openConnections) connections still open") }
            let kinds = byKind.sorted { $0.key.description < $1.key.description }.map { "\($0.key) \($0.value)" }
                .joined(separator: ", ")
            Swift.print(
                """
                \(transport): \(requests) requests in \(String(format: "%.1f", seconds)) s, \
                \(mismatches.isEmpty ? "every" : "not every") outcome as its fault implies, \(refreshes) token refreshes, \
                \(logLines) log lines
                  by kind: \(kinds)
                  descriptors \(before.descriptors) → \(after.descriptors), \
                resident memory \(before.residentBytes >> 20) → \(after.residentBytes >> 20) MiB, \
                temporary files \(before.temporaryFiles) → \(after.temporaryFiles), \
                completed twice \(completedTwice), never \(neverCompleted), in flight \(stillShown)
                  \(failures.isEmpty ? "passed" : "FAILED: " + failures.joined(separator: "; "))
                """
            )
            return failures.isEmpty
        }
    }

    /// One provider, on a transport of its own that is shut down at the end, sending `requests` requests.
    private static func round(
        requests: Int,
        inFlight: Int,
        seed: UInt64,
        _ transport: FaultTable.Transport,
        _ server: HostileServer
    ) async throws -> Report {
        var generator = SplitMix64(seed: seed)
        let kinds = (0..<requests).map { _ in draw(using: &generator) }
        let cancelDelays = kinds.map { _ in Duration.milliseconds(Int(generator.next() % 50) + 1) }
        let counters = Counters(requests: requests)
        let auth = TokenRefreshPlugin<SoakApi>(token: "stale") { _ in
            counters.countRefresh()
            return "fresh"
        }
        let plugins: [Plugin<SoakApi>] = [
            auth,
            RetryPlugin(
                policy: RetryPolicy(maximumAttempts: 2, initialDelay: .milliseconds(1), jitter: 0),
                randomFraction: { 0 }
            ),
            LoggingPlugin(logger: Logger(label: "soak") { _ in CountingLogHandler(counters: counters) }),
            ProgressIndicatorPlugin(showIndicator: { counters.show(1) }, hideIndicator: { counters.show(-1) }),
        ]
        let client =
            transport == .asyncHTTPClient
            ? HTTPClient(eventLoopGroupProvider: .singleton, configuration: soakClientConfiguration()) : nil
        let start = ContinuousClock.now
        do {
            let provider = ApiProvider<SoakApi>(
                plugins: plugins,
                transport: client.map { AsyncHTTPClientTransport(client: $0) } ?? URLSessionTransport()
            )
            await withTaskGroup(of: Void.self) { group in
                for index in 0..<requests {
                    if index >= inFlight { await group.next() }
                    // Now and then the token goes stale again, so that refreshes keep happening under load.
                    if index % 1_000 == 999 { auth.setToken("stale") }
                    group.addTask {
                        await send(index, kinds[index], cancelAfter: cancelDelays[index], provider, server, counters)
                    }
                }
            }
        }
        try await client?.shutdown()
        // A second completion would come after the first: give it a moment to show.
        try await Task.sleep(for: .milliseconds(500))
        var report = counters.report(kinds: kinds, transport: transport)
        report.seconds = Double((ContinuousClock.now - start).components.seconds)
        return report
    }

    private static func soakClientConfiguration() -> HTTPClient.Configuration {
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool.retryConnectionEstablishment = false
        configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = 256
        return configuration
    }

    private static func send(
        _ index: Int,
        _ kind: Kind,
        cancelAfter delay: Duration,
        _ provider: ApiProvider<SoakApi>,
        _ server: HostileServer,
        _ counters: Counters
    ) async {
        let endpoint: SoakApi
        switch kind {
        case .fault(let fault): endpoint = SoakApi(fault: fault, baseUrl: server.baseUrl(for: fault))
        case .cancel: endpoint = SoakApi(fault: .silence, baseUrl: server.baseUrl, timeout: .seconds(60))
        }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let request = provider.performRequest(on: endpoint, decodeBodyTo: [Int].self) { result in
                if counters.complete(index, with: FaultOutcome(result), detail: "\(result)") { continuation.resume() }
            }
            if kind == .cancel {
                Task {
                    try? await Task.sleep(for: delay)
                    request.cancel()
                }
            }
        }
    }

    /// What `kind` must end with through this soak's plugins.
    static func accepted(_ kind: Kind, on transport: FaultTable.Transport) -> [FaultOutcome] {
        switch kind {
        case .cancel: [.cancelled]
        // The token plugin refreshes and replays: the caller never sees the 401.
        case .fault(.staleToken): [.value([1, 2, 3])]
        case .fault(let fault):
            FaultTable.accepted(fault, on: transport)
                + (transport == .urlSession && malformed.contains(fault) ? [.noResponse(.networkConnectionLost)] : [])
        }
    }

    /// Answers libcurl refuses and the server closes right after: under load, libcurl now and then sees the close
    /// before it has parsed what came before it, and reports a lost connection.
    private static let malformed: Set<Fault> = [
        .conflictingContentLengths, .contentLengthWithChunked, .invalidChunkSize, .malformedStatusLine,
        .invalidHeaderBytes, .megabyteOfHeaders, .corruptGzip,
    ]

    private static func draw(using generator: inout SplitMix64) -> Kind {
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
        let fault: Fault
        let baseUrl: URL
        var timeout: Duration? = nil

        init(fault: Fault, baseUrl: URL, timeout: Duration? = nil) {
            self.fault = fault
            self.baseUrl = baseUrl
            self.timeout = timeout ?? (fault == .silence || fault == .drip ? .milliseconds(300) : .seconds(60))
        }

        var subpath: String { fault.path }
        var method: HttpMethod {
            fault == .answerBeforeBody
                ? .post(body: .data(Data(count: 4 << 20), contentType: "application/octet-stream")) : .get
        }
    }

    /// Counts, under one lock, what the soak's callbacks report from many threads.
    final class Counters: @unchecked Sendable {
        private let lock = NSLock()
        private var completions: [Int]
        private var outcomes: [FaultOutcome?]
        private var details: [String]
        private var shown = 0
        private var refreshes = 0
        private var logLines = 0

        init(requests: Int) {
            completions = Array(repeating: 0, count: requests)
            outcomes = Array(repeating: nil, count: requests)
            details = Array(repeating: "", count: requests)
        }

        /// Records a completion; `true` for the first of `index`.
        func complete(_ index: Int, with outcome: FaultOutcome, detail: String) -> Bool {
            lock.withLock {
                completions[index] += 1
                if completions[index] == 1 {
                    outcomes[index] = outcome
                    details[index] = detail
                }
                return completions[index] == 1
            }
        }

        func show(_ change: Int) { lock.withLock { shown += change } }
        func countRefresh() { lock.withLock { refreshes += 1 } }
        func countLogLine() { lock.withLock { logLines += 1 } }

        func report(kinds: [Kind], transport: FaultTable.Transport) -> Report {
            lock.withLock {
                var report = Report()
                report.requests = kinds.count
                for (index, kind) in kinds.enumerated() {
                    report.byKind[kind, default: 0] += 1
                    if completions[index] > 1 { report.completedTwice += 1 }
                    guard let outcome = outcomes[index] else {
                        report.neverCompleted += 1
                        continue
                    }
                    if !FaultSoak.accepted(kind, on: transport).contains(outcome) {
                        report.mismatches.append(
                            "request \(index), \(kind): \(outcome) (\(details[index].prefix(300)))"
                        )
                    }
                }
                report.stillShown = shown
                report.refreshes = refreshes
                report.logLines = logLines
                return report
            }
        }
    }

    /// Counts the log lines the logging plugin writes, and writes none.
    struct CountingLogHandler: LogHandler {
        let counters: Counters
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .debug

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) { counters.countLogLine() }
    }
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
private func mallocTrim(_ pad: Int) -> Int32
#endif
