#if AsyncHTTPClient
import AsyncHTTPClient
import CourierTestServer
import Foundation
import NIOCore
import NIOPosix
import Testing

@testable import CourierAsyncHTTPClient

/// How a file goes out as an upload over AsyncHTTPClient.
@Suite(.timeLimit(.minutes(HangGuard.minutes))) struct FileChunksTests {
    /// A FIFO whose writing end stays open never reaches its end of file. The body must end with its last announced
    /// byte, not after one more read that finds the end: the answer can arrive during that read, and AsyncHTTPClient
    /// then kept the connection out of its pool for good (the fault soak ran out of connections that way).
    @Test func theBodyEndsWithItsLastAnnouncedByteWithoutReadingOn() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("courier-fifo-\(UUID().uuidString)")
        try #require(mkfifo(path.path, 0o600) == 0)
        defer { unlink(path.path) }
        // Opened for reading and writing, which does not wait for a reader, and kept open until the end.
        let writingEnd = open(path.path, O_RDWR)
        try #require(writingEnd >= 0)
        defer { close(writingEnd) }
        let bytes = (0..<3_000).map { UInt8(truncatingIfNeeded: $0) }
        try #require(write(writingEnd, bytes, bytes.count) == bytes.count)

        #expect(try await Self.sent(path, size: bytes.count) == bytes)
    }

    /// Past one chunk, the file goes out whole, in order; an empty file sends nothing and ends.
    @Test(arguments: [FileChunks.chunkSize + 10, 0])
    func aRegularFileGoesOutWhole(size: Int) async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("courier-chunks-\(UUID().uuidString)")
        let bytes = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        try Data(bytes).write(to: path)
        defer { try? FileManager.default.removeItem(at: path) }

        #expect(try await Self.sent(path, size: size) == bytes)
    }

    /// The bytes `FileChunks` hands a stream writer for `file`, announced as `size`.
    private static func sent(_ file: URL, size: Int) async throws -> [UInt8] {
        let eventLoop = MultiThreadedEventLoopGroup.singleton.next()
        let received = Received()
        let writer = HTTPClient.Body.StreamWriter { data in
            if case .byteBuffer(let buffer) = data { received.append(Array(buffer.readableBytesView)) }
            return eventLoop.makeSucceededVoidFuture()
        }
        try await FileChunks(url: file).write(size: size, to: writer, on: eventLoop).get()
        return received.bytes
    }
}

/// The bytes a test's stream writer was given.
private final class Received: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [UInt8] = []

    var bytes: [UInt8] { lock.withLock { storage } }

    func append(_ more: [UInt8]) { lock.withLock { storage += more } }
}
#endif
