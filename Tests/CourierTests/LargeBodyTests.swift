import Courier
import CourierTestServer
import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A 200 MB file is streamed from disk, as the whole body or as a multipart part, with its length announced.
@Suite(.timeLimit(.minutes(2))) struct LargeBodyTests {
    static let size = 200 * 1024 * 1024

    /// A sparse-free 200 MB file of a repeating pattern, written in 1 MiB chunks.
    static func makeLargeFile() throws -> URL {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent(
            "courier-large-\(UUID().uuidString).bin"
        )
        _ = FileManager.default.createFile(atPath: file.path, contents: nil)
        let handle = try FileHandle(forWritingTo: file)
        defer { try? handle.close() }
        let chunk = Data((0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 % 251) })
        for _ in 0..<(size >> 20) {
            try handle.write(contentsOf: chunk)
        }
        return file
    }

    @Test func aFileBodyAndAMultipartFileArriveWholeWithTheirLengthAndNoChunking() async throws {
        let file = try Self.makeLargeFile()
        defer { try? FileManager.default.removeItem(at: file) }
        try await TestServer.withServer { server in
            let provider = ApiProvider<FreeEndpoint>(baseUrl: server.baseUrl)
            let peakBefore = PeakMemory.reset()

            let whole = try await provider.response(
                on: FreeEndpoint(subpath: "sink", method: .put(body: .file(file, contentType: "application/x-raw"))),
                decodeBodyTo: SinkReport.self
            ).get()
            #expect(whole.bytes == Self.size)
            #expect(whole.contentLength == String(Self.size))
            #expect(whole.transferEncoding == nil)
            #expect(whole.contentType == "application/x-raw")
            #expect(whole.head.prefix(3) == Data([0, 1, 2]))

            let multipart = try await provider.response(
                on: FreeEndpoint(
                    subpath: "sink",
                    method: .post(
                        body: .multipart([.text(name: "note", value: "big"), .file(name: "blob", url: file)])
                    )
                ),
                decodeBodyTo: SinkReport.self
            ).get()
            #expect(multipart.bytes > Self.size)
            #expect(multipart.contentLength == String(multipart.bytes))
            #expect(multipart.transferEncoding == nil)
            let boundary = try #require(multipart.contentType?.components(separatedBy: "boundary=").last)
            #expect(multipart.head.starts(with: Data("--\(boundary)\r\n".utf8)))
            #expect(multipart.tail.suffix(boundary.count + 6) == Data("--\(boundary)--\r\n".utf8))

            if let peakBefore, let peakAfter = PeakMemory.current() {
                // Loading the file whole would add at least its 200 MB; streaming adds buffers. Other tests run
                // in parallel in this process, so the bound is generous rather than tight.
                #expect(
                    peakAfter - peakBefore < 120 * 1024 * 1024,
                    "peak grew by \((peakAfter - peakBefore) >> 20) MiB"
                )
            }
        }
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: FileManager.default.temporaryDirectory.path)
            .filter { $0.hasPrefix("courier-multipart-") }
        #expect(leftovers.isEmpty, "temporary multipart bodies left behind: \(leftovers)")
    }
}

/// The process's peak resident memory, on Linux, where it can be reset to measure one stretch of work.
enum PeakMemory {
    /// Resets the peak to the current resident size and returns that size in bytes; `nil` where unsupported.
    static func reset() -> Int? {
        #if os(Linux)
        guard (try? "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)) != nil else {
            return nil
        }
        return status("VmRSS")
        #else
        return nil
        #endif
    }

    /// The peak resident size in bytes since the last reset.
    static func current() -> Int? { status("VmHWM") }

    private static func status(_ field: String) -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        let line = text.split(separator: "\n").first { $0.hasPrefix(field + ":") }
        let kilobytes = line?.split(separator: " ").dropFirst().first.flatMap { Int($0) }
        return kilobytes.map { $0 * 1024 }
    }
}
