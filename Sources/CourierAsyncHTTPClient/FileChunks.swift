import Foundation
import NIOCore

/// A file read in 1 MiB chunks as it is sent, so a large upload never sits in memory whole.
struct FileChunks: AsyncSequence, Sendable {
    typealias Element = ByteBuffer

    let url: URL
    static let chunkSize = 1 << 20

    struct AsyncIterator: AsyncIteratorProtocol {
        let handle: FileHandle?
        let openError: Error?

        mutating func next() async throws -> ByteBuffer? {
            if let openError { throw openError }
            guard let data = try handle?.read(upToCount: FileChunks.chunkSize), !data.isEmpty else {
                try handle?.close()
                return nil
            }
            return ByteBuffer(bytes: data)
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        do {
            return AsyncIterator(handle: try FileHandle(forReadingFrom: url), openError: nil)
        } catch {
            return AsyncIterator(handle: nil, openError: error)
        }
    }

    /// A body stream a plugin set, read whole.
    static func readAll(_ stream: InputStream) throws -> Data {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        stream.open()
        defer { stream.close() }
        while true {
            let count = stream.read(&buffer, maxLength: buffer.count)
            if count < 0 { throw stream.streamError ?? URLError(.cannotDecodeRawData) }
            if count == 0 { return data }
            data.append(buffer, count: count)
        }
    }
}
