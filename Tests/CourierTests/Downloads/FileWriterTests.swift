import CourierTestServer
import Foundation
import Testing

@testable import Courier

/// The file writer on its own: what a transport that cannot wait for `readMore` (URLSession) hands it is written
/// whole, and every go-ahead it was given runs, also those given while two writes waited for the disk.
@Suite(.timeLimit(.minutes(HangGuard.minutes))) struct FileWriterTests {
    @Test func everyPartIsWrittenAndEveryGoAheadRunsWhenTheTransportDoesNotWait() async throws {
        try await TemporaryDirectory.with { directory in
            let url = directory.file("body")
            #expect(FileManager.default.createFile(atPath: url.path, contents: nil))
            let handle = try FileHandle(forWritingTo: url)
            let writer = FileWriter(
                url: url,
                handle: handle,
                offset: 0,
                expectedSize: nil,
                limit: .max,
                inline: false
            )
            let goAheads = Locked(0)
            // 64 KiB parts, 5 MiB in all: five batches, handed over without waiting for one to be written.
            let part = Data(repeating: 0x61, count: 64 * 1024)
            let parts = 80
            for _ in 0..<parts {
                try writer.write(part) { goAheads.withLock { $0 += 1 } }
            }
            let error: (any Error)? = await withCheckedContinuation { continuation in
                writer.close { continuation.resume(returning: $0) }
            }
            let written = try Data(contentsOf: url)
            #expect(error == nil)
            #expect(written.count == parts * part.count)
            #expect(goAheads.withLock { $0 } == parts)
        }
    }
}
