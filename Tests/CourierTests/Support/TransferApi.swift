@testable import Courier
import CourierTestServer
import Foundation

/// The test server's transfer routes as an endpoint enum.
enum TransferApi: Endpoint {
    typealias ClientErrorType = TestError

    /// `/file`, with `options` sent as `X-File-<name>` headers, so that the URL stays the same when they change.
    case file(size: Int, options: [String: String] = [:], idleTimeout: Duration? = nil)
    case drip(bytes: Int, intervalMs: Int, idleTimeout: Duration? = nil)
    case hold(id: String, timeout: Duration? = nil)
    case bytes(count: Int, announce: Bool = true)
    case status(Int)
    case events(key: String, total: Int, perConnection: Int, retry: Int? = nil)
    case eventStream(Data)
    case upload(HttpBody)
    case flaky(key: String, failures: Int)
    case protected(accept: String)

    var subpath: String {
        switch self {
        case .file: "file"
        case .drip: "drip"
        case .hold(let id, _): "hold/\(id)"
        case .bytes: "bytes"
        case .status(let code): "status/\(code)"
        case .events(let key, _, _, _): "events/\(key)"
        case .eventStream: "event-stream"
        case .upload: "sink"
        case .flaky(let key, _): "flaky/\(key)"
        case .protected: "protected"
        }
    }

    var method: HttpMethod {
        guard case .upload(let body) = self else { return .get }
        return .post(body: body)
    }

    var queryParameters: [String: QueryParameterValue] {
        switch self {
        case .file(let size, _, _): ["size": .int(size)]
        case .drip(let bytes, let interval, _): ["bytes": .int(bytes), "intervalMs": .int(interval)]
        case .bytes(let count, let announce): ["count": .int(count), "announce": .string(announce ? "true" : "false")]
        case .events(_, let total, let perConnection, let retry):
            ["total": .int(total), "perConnection": .int(perConnection)].merging(
                retry.map { ["retry": .int($0)] } ?? [:]
            ) {
                $1
            }
        case .eventStream(let body): ["body": .string(body.base64EncodedString())]
        case .flaky(_, let failures): ["failures": .int(failures)]
        case .protected(let accept): ["accept": .string(accept)]
        default: [:]
        }
    }

    var headers: [String: String] {
        guard case .file(_, let options, _) = self else { return [:] }
        return Dictionary(uniqueKeysWithValues: options.map { ("X-File-\($0.key)", $0.value) })
    }

    var timeout: Duration? {
        if case .hold(_, let timeout) = self { return timeout }
        return nil
    }

    var idleTimeout: Duration? {
        switch self {
        case .file(_, _, let timeout), .drip(_, _, let timeout): timeout
        default: nil
        }
    }
}

/// A directory of its own for a test's files, deleted afterwards.
struct TemporaryDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("courier-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func file(_ name: String) -> URL { url.appendingPathComponent(name) }

    /// Every file in it, hidden ones included, sorted.
    func contents() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: url.path).sorted()
    }

    func remove() {
        try? FileManager.default.removeItem(at: url)
    }

    static func with<Result>(_ body: (TemporaryDirectory) async throws -> Result) async throws -> Result {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        return try await body(directory)
    }
}

/// The bytes `/file?size=` sends; made once per size, since many tests compare against the same few.
func generatedFile(size: Int) -> Data {
    generatedFiles.value(for: size) {
        var bytes = [UInt8](repeating: 0, count: size)
        for index in bytes.indices { bytes[index] = TestServer.generatedFileByte(at: Int64(index)) }
        return Data(bytes)
    }
}

private let generatedFiles = Locked<[Int: Data]>([:])
