#if canImport(CCourierCurl)
import Foundation

/// A request body as libcurl's read callback takes it: bytes in memory, a file read as it is sent, or a body produced
/// while it is sent.
final class CurlRequestBody {
    private enum Source {
        case bytes(Data, offset: Int)
        case file(FileHandle)
        case produced(CurlProducedBody)
    }

    private var source: Source
    /// The length announced, or `nil` to send the body chunked.
    let length: Int64?

    init(_ data: Data) {
        source = .bytes(data, offset: 0)
        length = Int64(data.count)
    }

    init(_ produced: CurlProducedBody) {
        source = .produced(produced)
        length = produced.length
    }

    /// The body produced while it is sent, if it is one.
    var produced: CurlProducedBody? {
        guard case .produced(let produced) = source else { return nil }
        return produced
    }

    init(file: URL) throws {
        source = .file(try FileHandle(forReadingFrom: file))
        let size = try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int
        length = size.map(Int64.init)
    }

    /// Copies the next bytes into `buffer`: how many, 0 at the end.
    func read(
        into buffer: UnsafeMutableRawBufferPointer,
        whenReady: @escaping @Sendable () -> Void
    ) throws -> CurlProducedBody.Read {
        switch source {
        case .produced(let produced):
            return produced.read(into: buffer, whenReady: whenReady)
        case .bytes, .file:
            let count = try read(into: buffer)
            return count > 0 ? .bytes(count) : .end
        }
    }

    private func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        switch source {
        case .produced:
            return 0
        case .bytes(let data, let offset):
            let count = min(buffer.count, data.count - offset)
            guard count > 0 else { return 0 }
            data.copyBytes(to: buffer.bindMemory(to: UInt8.self), from: offset..<(offset + count))
            source = .bytes(data, offset: offset + count)
            return count
        case .file(let handle):
            guard let chunk = try handle.read(upToCount: buffer.count), !chunk.isEmpty else { return 0 }
            chunk.copyBytes(to: buffer.bindMemory(to: UInt8.self), count: chunk.count)
            return chunk.count
        }
    }

    /// Starts the body again from `offset`: libcurl sends it anew to follow a 307 or 308, or on a new connection
    /// when a kept-alive one turned out closed.
    func seek(to offset: Int64) throws {
        switch source {
        case .bytes(let data, _):
            guard offset >= 0, offset <= Int64(data.count) else { throw URLError(.cannotDecodeRawData) }
            source = .bytes(data, offset: Int(offset))
        case .file(let handle):
            try handle.seek(toOffset: UInt64(max(offset, 0)))
        case .produced(let produced):
            guard produced.canRestart(at: offset) else { throw CurlProducedBody.resendRefusal }
        }
    }

    func close() {
        switch source {
        case .file(let handle): try? handle.close()
        case .produced(let produced): produced.stop()
        case .bytes: break
        }
    }
}
#endif
