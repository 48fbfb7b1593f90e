#if AsyncHTTPClient
import AsyncHTTPClient
import Foundation
import NIOCore

/// A file read in 1 MiB chunks as it is sent, so a large upload never sits in memory whole.
///
/// Each chunk is read on a Dispatch queue once the client has taken the one before: the event loops never wait for
/// the disk, and nothing runs on Swift concurrency's threads.
struct FileChunks: Sendable {
    let url: URL
    static let chunkSize = 1 << 20

    /// Writes the file's first `size` bytes, its announced length, to `writer` (with a `size` of 0, the file to its
    /// end); the future fails with the first read or write error.
    ///
    /// The body ends as soon as its last byte is written, not after one more read finds the end of the file: the
    /// answer can arrive in between, and AsyncHTTPClient then kept the connection (one in three uploads answered at
    /// once, under load) until none was left in its pool.
    func write(size: Int, to writer: HTTPClient.Body.StreamWriter, on eventLoop: any EventLoop) -> EventLoopFuture<Void>
    {
        let written = eventLoop.makePromise(of: Void.self)
        do {
            // A length of 0 may be a file that is no regular file (a FIFO): read to its end, and the client refuses
            // the body if any byte comes.
            let remaining = size > 0 ? size : .max
            Self.writeChunk(
                from: try FileHandle(forReadingFrom: url),
                remaining: remaining,
                to: writer,
                completing: written
            )
        } catch {
            written.fail(error)
        }
        return written.futureResult
    }

    private static func writeChunk(
        from file: FileHandle,
        remaining: Int,
        to writer: HTTPClient.Body.StreamWriter,
        completing written: EventLoopPromise<Void>
    ) {
        DispatchQueue.global().async {
            let chunk: Data
            do {
                chunk = try file.read(upToCount: min(chunkSize, remaining)) ?? Data()
            } catch {
                try? file.close()
                return written.fail(error)
            }
            // Shorter than announced: the client refuses the body for its length.
            guard !chunk.isEmpty else {
                try? file.close()
                return written.succeed()
            }
            let left = remaining - chunk.count
            writer.write(.byteBuffer(ByteBuffer(bytes: chunk))).whenComplete { result in
                switch result {
                case .success where left > 0:
                    writeChunk(from: file, remaining: left, to: writer, completing: written)
                case .success:
                    try? file.close()
                    written.succeed()
                case .failure(let error):
                    try? file.close()
                    written.fail(error)
                }
            }
        }
    }

    /// How large the parts of a body in memory are when its upload is reported.
    static let progressSliceSize = 64 * 1024

    /// Writes `data` in parts of ``progressSliceSize``, each once the one before is written.
    static func write(
        _ data: Data,
        inSlicesTo writer: HTTPClient.Body.StreamWriter,
        on eventLoop: any EventLoop
    ) -> EventLoopFuture<Void> {
        var written = eventLoop.makeSucceededVoidFuture()
        var start = data.startIndex
        while start < data.endIndex {
            let slice = data[start..<min(start + progressSliceSize, data.endIndex)]
            written = written.flatMap { writer.write(.byteBuffer(ByteBuffer(bytes: slice))) }
            start = slice.endIndex
        }
        return written
    }
}
#endif
