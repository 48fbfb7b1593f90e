#if AsyncHTTPClient && OpenAPI
import AsyncHTTPClient
import Courier
import CourierAsyncHTTPClient
import Foundation
import NIOCore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Large bodies read as they arrive: streaming throughput beside raw URLSession and raw AsyncHTTPClient, and the
/// peak memory of a 1 GB download to a file.
enum Transfers {
    enum Client: String, CaseIterable {
        case rawUrlSession = "URLSession, delegate counting bytes"
        case courierStreamUrlSession = "Courier stream over URLSession"
        case courierDownloadUrlSession = "Courier download to file over URLSession"
        case rawAsyncHttpClient = "AsyncHTTPClient execute, body iterated"
        case courierStreamAsyncHttpClient = "Courier stream over AsyncHTTPClient"
        case courierDownloadAsyncHttpClient = "Courier download to file over AsyncHTTPClient"
        case rawCurl = "raw libcurl, counting bytes"
        case rawCurlToFile = "raw libcurl, writing to a file"
        case courierStreamCurl = "Courier stream over libcurl"
        case courierDownloadCurl = "Courier download to file over libcurl"

        /// The raw client of the same library, which the table compares with.
        var raw: Client {
            switch self {
            case .rawUrlSession, .courierStreamUrlSession, .courierDownloadUrlSession: .rawUrlSession
            case .rawAsyncHttpClient, .courierStreamAsyncHttpClient, .courierDownloadAsyncHttpClient:
                .rawAsyncHttpClient
            case .rawCurl, .rawCurlToFile, .courierStreamCurl, .courierDownloadCurl: .rawCurl
            }
        }

        /// Raw libcurl writing to a file, beside which a download to a file over libcurl is also set.
        var rawWritingToFile: Client? { self == .courierDownloadCurl ? .rawCurlToFile : nil }

        /// The transport of a Courier client: "urlSession", "asyncHTTPClient" or "curl".
        var transport: String {
            switch raw {
            case .rawAsyncHttpClient: "asyncHTTPClient"
            case .rawCurl: "curl"
            default: "urlSession"
            }
        }
    }

    /// Reads `bytes` from `/stream/{bytes}` once with `client`; returns how many bytes arrived.
    static func read(_ client: Client, bytes: Int, port: Int) async throws -> Int {
        let baseUrl = URL(string: "http://127.0.0.1:\(port)")!
        let endpoint = StreamApi.stream(bytes: bytes)
        switch client {
        case .rawUrlSession:
            return try await RawSessionReader().read(baseUrl.appendingPathComponent("stream/\(bytes)"))
        case .rawAsyncHttpClient:
            let response = try await HTTPClient.shared.execute(
                HTTPClientRequest(url: "\(baseUrl)/stream/\(bytes)"),
                deadline: .distantFuture
            )
            var count = 0
            for try await part in response.body { count += part.readableBytes }
            return count
        case .rawCurl:
            guard let count = await rawCurl?.count(baseUrl.appendingPathComponent("stream/\(bytes)").absoluteString)
            else { throw BenchmarkError.badResponse }
            return count
        case .rawCurlToFile:
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("courier-bench-\(UUID())")
            defer { try? FileManager.default.removeItem(at: file) }
            let url = baseUrl.appendingPathComponent("stream/\(bytes)").absoluteString
            guard let count = await rawCurl?.download(url, to: file.path) else { throw BenchmarkError.badResponse }
            return count
        case .courierStreamUrlSession, .courierStreamAsyncHttpClient, .courierStreamCurl:
            let provider = self.provider(client.transport, baseUrl: baseUrl)
            var count = 0
            for try await part in try await provider.stream(on: endpoint).get().chunks { count += part.count }
            return count
        case .courierDownloadUrlSession, .courierDownloadAsyncHttpClient, .courierDownloadCurl:
            let provider = self.provider(client.transport, baseUrl: baseUrl)
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("courier-bench-\(UUID())")
            defer { try? FileManager.default.removeItem(at: file) }
            return Int(try await provider.download(on: endpoint, to: file).get().byteCount)
        }
    }

    /// The raw libcurl client, one for the process as raw AsyncHTTPClient's is.
    private static let rawCurl = RawCurl()

    /// A provider over `transport`: "urlSession", "asyncHTTPClient" or "curl".
    private static func provider(_ transport: String, baseUrl: URL) -> ApiProvider<StreamApi> {
        switch transport {
        case "asyncHTTPClient": ApiProvider(baseUrl: baseUrl, transport: AsyncHTTPClientTransport())
        case "curl": ApiProvider(baseUrl: baseUrl, transport: CurlTransport())
        default: ApiProvider(baseUrl: baseUrl, transport: URLSessionTransport())
        }
    }

    /// Megabytes per second of each client for a body of `bytes`, taking turns, medians of `runs`.
    static func throughput(
        of clients: [Client] = Client.allCases,
        bytes: Int,
        port: Int,
        runs: Int
    ) async throws -> [Client: Double] {
        for client in clients { _ = try await read(client, bytes: bytes / 8, port: port) }
        var rates: [Client: [Double]] = [:]
        for run in 0..<runs {
            let order = run % 2 == 0 ? clients : clients.reversed()
            for client in order {
                let start = ContinuousClock.now
                let count = try await read(client, bytes: bytes, port: port)
                guard count == bytes else { throw BenchmarkError.badResponse }
                rates[client, default: []].append(Double(bytes) / 1e6 / Measure.seconds(start.duration(to: .now)))
            }
        }
        return rates.mapValues(Report.median)
    }

    /// One 1 GB (or `bytes`) download to a file in this process, after a small one to warm up: peak resident memory
    /// before and after, as `before <bytes> after <bytes> seconds <s> progress <reports> <last>`.
    static func downloadMemory(over transport: String, port: Int, bytes: Int) async throws -> String {
        let baseUrl = URL(string: "http://127.0.0.1:\(port)")!
        if ProcessInfo.processInfo.environment["COURIER_BENCH_RAW"] != nil {
            // The floor: raw URLSession reading the body into nothing.
            _ = try await RawSessionReader().read(baseUrl.appendingPathComponent("stream/\(4 << 20)"))
            try? "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)
            let before = Measure.procStatus("VmHWM")
            let start = ContinuousClock.now
            let count = try await RawSessionReader().read(baseUrl.appendingPathComponent("stream/\(bytes)"))
            let seconds = Measure.seconds(start.duration(to: .now))
            return "before \(before) after \(Measure.procStatus("VmHWM")) seconds \(seconds) progress 0 \(count)"
        }
        let provider = provider(transport, baseUrl: baseUrl)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("courier-bench-\(UUID())")
        defer { try? FileManager.default.removeItem(at: file) }
        _ = try await provider.download(on: .stream(bytes: 4 << 20), to: file).get()
        // Writing 5 resets the peak to the current size (Linux 4.0 and later).
        try? "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)
        let before = Measure.procStatus("VmHWM")
        let reports = ProgressLog()
        let start = ContinuousClock.now
        let downloaded = try await provider.download(on: .stream(bytes: bytes), to: file) { reports.add($0) }.get()
        let seconds = Measure.seconds(start.duration(to: .now))
        guard downloaded.byteCount == Int64(bytes) else { throw BenchmarkError.badResponse }
        let (count, last, monotone) = reports.summary
        return "before \(before) after \(Measure.procStatus("VmHWM")) seconds \(seconds) progress \(count) \(last) "
            + "monotone \(monotone)"
    }
}

/// The benchmark server's large bodies: `bytes` generated bytes, sent in 64 KiB parts with their length announced.
enum StreamApi: Endpoint {
    typealias ClientErrorType = EmptyBodyResponse

    case stream(bytes: Int)

    var subpath: String {
        guard case .stream(let bytes) = self else { return "" }
        return "stream/\(bytes)"
    }

    var method: HttpMethod { .get }
}

/// The progress reports of a download, as the benchmark checks them.
final class ProgressLog: @unchecked Sendable {
    private let lock = NSLock()
    private var counts: [Int64] = []

    func add(_ progress: TransferProgress) {
        lock.withLock { counts.append(progress.completedBytes) }
    }

    var summary: (count: Int, last: Int64, monotone: Bool) {
        lock.withLock { (counts.count, counts.last ?? 0, counts == counts.sorted()) }
    }
}

/// Raw URLSession with a data delegate that counts the bytes and keeps none: the floor for streaming over it.
final class RawSessionReader: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    private var continuation: CheckedContinuation<Int, any Error>?

    func read(_ url: URL) async throws -> Int {
        let session = URLSession(configuration: .ephemeral, delegate: self, delegateQueue: nil)
        defer { session.finishTasksAndInvalidate() }
        return try await withCheckedThrowingContinuation { continuation in
            lock.withLock { self.continuation = continuation }
            session.dataTask(with: url).resume()
        }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        lock.withLock { count += data.count }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        let (continuation, count) = lock.withLock { (self.continuation, self.count) }
        if let error { continuation?.resume(throwing: error) } else { continuation?.resume(returning: count) }
    }
}
#endif
