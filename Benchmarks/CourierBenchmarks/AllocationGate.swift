#if AsyncHTTPClient && OpenAPI
import AsyncHTTPClient
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Heap allocations per request, Courier beside its baseline in the same run, checked against the committed budget
/// in `Benchmarks/allocation-budget.json`: unlike time, these counts are the same from one run to the next, so CI
/// can fail on them.
enum AllocationGate {
    /// How far a count may rise above its budget before the gate fails: the lower of two measurements moves by about
    /// two allocations between runs, never by this much.
    static let tolerance = 3.0

    /// One comparison the gate makes: a Courier variant against the baseline it is measured beside.
    struct Pair: Sendable {
        let name: String
        let courier: Variant
        let baseline: Variant
    }

    /// One thing counted: a mocked call, a request over the loopback, raw URLSession with a data delegate, a client
    /// of the libcurl table, or a generated client's call.
    enum Variant: Sendable, Hashable {
        case mocked(String)
        case loopback(Loopback.Client)
        case sessionDelegate
        /// A client of the libcurl table: Courier over libcurl, or raw libcurl driven the same way.
        case curl(CurlBench.Client)
        /// A generated OpenAPI client's call over one of its transports.
        case generated(GeneratedClients.Transport)

        var label: String {
            switch self {
            case .mocked(let variant): "mocked \(variant), 1 KB"
            case .loopback(let client): client.rawValue
            case .sessionDelegate: "URLSession with a data delegate"
            case .curl(let client): client.rawValue
            case .generated(let transport): "generated client, \(transport.rawValue)"
            }
        }
    }

    static let pairs = [
        Pair(name: "mocked completion", courier: .mocked("completion"), baseline: .mocked("baseline")),
        Pair(name: "mocked async", courier: .mocked("async"), baseline: .mocked("baseline")),
        // A plugin that overrides nothing and says so costs no allocation.
        Pair(
            name: "mocked, a plugin with `implementedHooks: []`",
            courier: .mocked("plugin"),
            baseline: .mocked("completion")
        ),
        Pair(name: "over URLSession", courier: .loopback(.courierUrlSession), baseline: .loopback(.rawUrlSession)),
        // What any client pays that sees the body as it arrives (to refuse it past a limit): FoundationNetworking
        // hands each delegate callback over as an operation of its own, where `data(for:)` gets one completion.
        Pair(
            name: "over URLSession, beside a delegate",
            courier: .loopback(.courierUrlSession),
            baseline: .sessionDelegate
        ),
        Pair(
            name: "over AsyncHTTPClient",
            courier: .loopback(.courierAsyncHttpClient),
            baseline: .loopback(.rawAsyncHttpClient)
        ),
        Pair(name: "over libcurl", courier: .curl(.courierCurl), baseline: .curl(.rawCurl)),
        Pair(
            name: "generated client over AsyncHTTPClient",
            courier: .generated(.courierAsyncHTTPClient),
            baseline: .generated(.openAPIAsyncHTTPClient)
        ),
        // The Linux default beside the server-side transport of the OpenAPI project.
        Pair(
            name: "generated client over libcurl",
            courier: .generated(.courierCurl),
            baseline: .generated(.openAPIAsyncHTTPClient)
        ),
    ]

    /// The budget: for each pair, how many allocations per request Courier may add to its baseline.
    static func budget(at file: URL) throws -> [String: Double] {
        try JSONDecoder().decode([String: Double].self, from: Data(contentsOf: file))
    }

    static var budgetFile: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("allocation-budget.json")
    }

    /// Counts every variant, prints the table, and returns whether every pair is within its budget.
    static func check(port: Int) throws -> Bool {
        guard let counter = try Report.mallocCounter() else {
            print("No C compiler: the allocation counter cannot be built.")
            return false
        }
        let budget = try budget(at: budgetFile)
        var counts: [Variant: Double] = [:]
        for pair in pairs {
            for variant in [pair.baseline, pair.courier] where counts[variant] == nil {
                counts[variant] = try perRequest(variant, counter: counter, port: port)
            }
        }
        print("## Heap allocations per request, against `Benchmarks/allocation-budget.json`\n")
        print("| Courier | baseline | Courier | baseline's | added | budget | within |")
        print("| --- | --- | --- | --- | --- | --- | --- |")
        var holds = true
        for pair in pairs {
            let added = (counts[pair.courier] ?? 0) - (counts[pair.baseline] ?? 0)
            let allowed = budget[pair.name]
            let within = allowed.map { added <= $0 + tolerance } ?? false
            holds = holds && within
            print(
                "| \(pair.name) | \(pair.baseline.label) | \(format(counts[pair.courier])) "
                    + "| \(format(counts[pair.baseline])) | \(format(added)) "
                    + "| \(allowed.map { format($0) } ?? "none") | \(within ? "yes" : "NO") |"
            )
        }
        print("\nA count may exceed its budget by \(format(tolerance)); lower a budget when a change earns it.")
        return holds
    }

    /// Allocations per request: the difference between two runs of different lengths, each in a process of its own
    /// with the counter loaded, so that start-up, connection set-up and the warm-up cancel out. The middle of three
    /// measurements: a process now and then allocates a few more (raw AsyncHTTPClient's count moves between 215 and
    /// 220 from process to process) or, with FoundationNetworking's data delegate, a few fewer (555 to 560 for the
    /// same requests), and the lower of two let that baseline's low readings fail the gate with Courier's count
    /// unchanged.
    static func perRequest(_ variant: Variant, counter: String, port: Int) throws -> Double {
        let measured = try (0..<3).map { _ in try measuredOnce(variant, counter: counter, port: port) }.sorted()
        return measured[1]
    }

    private static func measuredOnce(_ variant: Variant, counter: String, port: Int) throws -> Double {
        func count(_ requests: Int) throws -> Double {
            let arguments =
                switch variant {
                case .mocked(let name): ["count", name, "1k", String(requests)]
                case .loopback(let client):
                    [
                        "count-loopback", String(Loopback.Client.allCases.firstIndex(of: client) ?? 0),
                        String(port), String(requests),
                    ]
                case .sessionDelegate: ["count-loopback", "delegate", String(port), String(requests)]
                case .curl(let client):
                    [
                        "count-curl", String(CurlBench.Client.allCases.firstIndex(of: client) ?? 0), String(port),
                        String(requests),
                    ]
                case .generated(let transport):
                    [
                        "count-openapi", String(GeneratedClients.Transport.allCases.firstIndex(of: transport) ?? 0),
                        String(port), String(requests),
                    ]
                }
            let (_, stderr) = try Measure.child(arguments, environment: ["LD_PRELOAD": counter])
            let line = stderr.split(separator: "\n").last { $0.hasPrefix("allocations ") } ?? ""
            guard let total = Double(line.dropFirst("allocations ".count)) else {
                throw BenchmarkError.badResponse
            }
            return total
        }
        return (try count(1_200) - count(200)) / 1_000
    }

    /// `count` requests one after the other from one loopback client (`nil`: raw URLSession with a data delegate),
    /// after a warm-up that opens the connection; the counter loaded into this process prints the total when it
    /// exits.
    static func repeatLoopback(_ client: Loopback.Client?, port: Int, count: Int) async throws {
        let httpClient = HTTPClient(eventLoopGroupProvider: .singleton)
        let operation =
            client.map { Loopback.request($0, port: port, httpClient: httpClient) }
            ?? SessionCollector().request(URL(string: "http://127.0.0.1:\(port)/items/1k")!)
        for _ in 0..<(count + 50) where !(await operation()) {
            throw BenchmarkError.badResponse
        }
        try await httpClient.shutdown()
    }

    /// `count` calls of a generated client over `transport` one after the other, after the same warm-up; both
    /// transports of the pair share the client `HTTPClient.shared`, as the generated client's table does.
    static func repeatGenerated(_ transport: GeneratedClients.Transport, port: Int, count: Int) async throws {
        let operation = GeneratedClients.request(over: transport, port: port, httpClient: .shared)
        for _ in 0..<(count + 50) where !(await operation()) {
            throw BenchmarkError.badResponse
        }
    }

    /// `count` requests of a libcurl table client one after the other, after the same warm-up.
    static func repeatCurl(_ client: CurlBench.Client, port: Int, count: Int) async throws {
        let operation = CurlBench.request(client, port: port)
        for _ in 0..<(count + 50) where !(await operation()) {
            throw BenchmarkError.badResponse
        }
    }

    private static func format(_ value: Double?) -> String {
        guard let value else { return "-" }
        return String(format: "%.1f", value)
    }
}

/// Raw URLSession with a data delegate that collects the body and decodes it: the least a client pays over URLSession
/// on Linux when it must see the body as it arrives (to refuse it past a limit).
final class SessionCollector: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private let lock = NSLock()
    private var transfers: [Int: (body: Data, continuation: CheckedContinuation<Data?, Never>)] = [:]
    private lazy var session = URLSession(configuration: .ephemeral, delegate: self, delegateQueue: nil)

    func request(_ url: URL) -> @Sendable () async -> Bool {
        var request = URLRequest(url: url)
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        let fixed = request
        let decoder = JSONDecoder()
        let session = lock.withLock { self.session }
        return {
            let body = await withCheckedContinuation { continuation in
                let task = session.dataTask(with: fixed)
                self.lock.withLock { self.transfers[task.taskIdentifier] = (Data(), continuation) }
                task.resume()
            }
            guard let body else { return false }
            return (try? decoder.decode([Item].self, from: body)) != nil
        }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        lock.withLock {
            guard var transfer = transfers.removeValue(forKey: dataTask.taskIdentifier) else { return }
            transfer.body.append(data)
            transfers[dataTask.taskIdentifier] = transfer
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        let transfer = lock.withLock { transfers.removeValue(forKey: task.taskIdentifier) }
        transfer?.continuation.resume(returning: error == nil ? transfer?.body : nil)
    }
}
#endif
