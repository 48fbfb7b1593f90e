import Courier
import CourierTestServer
import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The error body of the media API in the Transfers article.
struct MediaError: Decodable, Sendable {
    let code: Int
    let message: String
}

/// What the media API answers to an upload: the loopback server's `/sink` report.
struct UploadReceipt: Decodable, Sendable {
    let bytes: Int
}

/// A price update pushed as a Server-Sent Event.
struct Price: Decodable, Sendable {
    let number: Int
}

/// The Transfers article's API, served by the loopback server's generated files and event streams.
enum MediaApi: Endpoint {
    typealias ClientErrorType = MediaError

    case video(id: Int)
    case uploadPhoto(URL)
    case logTail
    case prices

    static let videoSize = 1_000_000
    static let logLines = "GET /todos 200\nGET /todos/7 404\r\nPOST /todos 201\n"

    var subpath: String {
        switch self {
        case .video: "file"
        case .uploadPhoto: "sink"
        case .logTail: "event-stream"
        case .prices: "events/prices"
        }
    }

    var method: HttpMethod {
        guard case .uploadPhoto(let file) = self else { return .get }
        return .post(body: .file(file, contentType: "image/jpeg"))
    }

    var queryParameters: [String: QueryParameterValue] {
        switch self {
        case .video(let id): ["size": .int(Self.videoSize), "etag": .string("video-\(id)")]
        case .logTail: ["body": .string(Data(Self.logLines.utf8).base64EncodedString())]
        case .prices: ["total": .int(3), "perConnection": .int(2), "retry": .int(2_000)]
        case .uploadPhoto: [:]
        }
    }
}

/// The Transfers and streaming article's snippets, run against the loopback server.
@Suite(.serialized, .timeLimit(.minutes(HangGuard.minutes)))
struct TransfersSnippets {
    /// A directory of its own for a test's downloads; the test deletes it.
    static func makeDownloadsDirectory() throws -> URL {
        let downloads = FileManager.default.temporaryDirectory.appendingPathComponent("docs-\(UUID())")
        try FileManager.default.createDirectory(at: downloads, withIntermediateDirectories: true)
        return downloads
    }

    @Test func aVideoDownloadsToAFileWithProgress() async throws {
        try await TestServer.withServer { server in
            let downloads = try Self.makeDownloadsDirectory()
            defer { try? FileManager.default.removeItem(at: downloads) }
            let provider = ApiProvider<MediaApi>(baseUrl: server.baseUrl)

            // snippet: Transfers download
            let destination = downloads.appendingPathComponent("video-7.mp4")
            let result = await provider.download(
                on: .video(id: 7),
                to: destination,
                options: DownloadOptions(resumable: true)
            ) { progress in
                print("\(progress.completedBytes) of \(progress.expectedBytes ?? 0) bytes")
            }
            let file = try result.get()
            print("\(file.byteCount) bytes in \(file.fileUrl.lastPathComponent), \(file.resumedFrom) of them kept")
            // end snippet
            #expect(file.byteCount == Int64(MediaApi.videoSize))
            #expect(try FileManager.default.contentsOfDirectory(atPath: downloads.path) == ["video-7.mp4"])
        }
    }

    @Test func aDownloadTaskReportsThroughAnAsyncSequence() async throws {
        try await TestServer.withServer { server in
            let downloads = try Self.makeDownloadsDirectory()
            defer { try? FileManager.default.removeItem(at: downloads) }
            let provider = ApiProvider<MediaApi>(baseUrl: server.baseUrl)
            let destination = downloads.appendingPathComponent("video-7.mp4")
            var fractions: [Double] = []

            // snippet: Transfers download task
            let task = provider.downloadTask(on: .video(id: 7), to: destination)
            for await progress in task.progress {
                fractions.append(progress.fractionCompleted ?? 0)
            }
            let downloaded = try await task.result.get()
            // end snippet
            #expect(downloaded.byteCount == Int64(MediaApi.videoSize))
            #expect(fractions.last == 1)
        }
    }

    @Test func anUploadReportsItsProgress() async throws {
        try await TestServer.withServer { server in
            let photoFile = FileManager.default.temporaryDirectory.appendingPathComponent("photo-\(UUID()).jpg")
            try Data(repeating: 0xFF, count: 500_000).write(to: photoFile)
            defer { try? FileManager.default.removeItem(at: photoFile) }
            let provider = ApiProvider<MediaApi>(baseUrl: server.baseUrl)

            // snippet: Transfers upload progress
            let receipt = try await provider.response(on: .uploadPhoto(photoFile), decodeBodyTo: UploadReceipt.self) {
                progress in
                if progress.direction == .upload {
                    print("sent \(Int((progress.fractionCompleted ?? 0) * 100)) %")
                }
            }.get()
            // end snippet
            #expect(receipt.bytes == 500_000)
        }
    }

    @Test func aLogTailIsReadLineByLine() async throws {
        try await TestServer.withServer { server in
            let provider = ApiProvider<MediaApi>(baseUrl: server.baseUrl)
            var lines: [String] = []

            // snippet: Transfers lines
            let streamed = try await provider.stream(on: .logTail).get()
            print(streamed.response.value(forHTTPHeaderField: "Content-Type") ?? "no type")
            for try await line in streamed.lines {
                lines.append(line)
            }
            // end snippet
            #expect(lines == ["GET /todos 200", "GET /todos/7 404", "POST /todos 201"])
        }
    }

    /// The prices stream sends two events, then after the server's `retry` of 2 s the third, on virtual time here.
    @Test func pricesArriveAcrossAReconnection() async throws {
        try await TestServer.withServer { server in
            let provider = ApiProvider<MediaApi>(baseUrl: server.baseUrl)

            // snippet: Transfers events test
            let scheduler = TestScheduler()
            let reader = Task {
                var numbers: [Int] = []
                let policy = EventStreamReconnection(scheduler: scheduler)
                for try await event in provider.events(on: .prices, reconnection: policy) {
                    numbers.append(try event.decodeData(as: Price.self).number)
                }
                return numbers
            }
            for _ in 1...2 {  // each connection ends, and the reconnection waits the server's `retry: 2000`
                await scheduler.waitForPendingWork()
                await scheduler.advance(by: .seconds(2))
            }
            let numbers = try await reader.value
            #expect(numbers == [1, 2, 3])
            // end snippet
            let lastEventIds = await server.receivedRequests().map { $0.header("Last-Event-ID") }
            #expect(lastEventIds == [nil, "2", "3"])
        }
    }

    @Test func pricesAreDecodedAsTheyArrive() async throws {
        try await TestServer.withServer { server in
            let provider = ApiProvider<MediaApi>(baseUrl: server.baseUrl)
            var numbers: [Int] = []

            // snippet: Transfers events
            let policy = EventStreamReconnection(scheduler: DispatchQueueScheduler(), delay: .seconds(5))
            for try await event in provider.events(on: .prices, reconnection: policy) {
                let price = try event.decodeData(as: Price.self)
                numbers.append(price.number)
                if numbers.count == 2 { break }  // leaving the loop closes the connection
            }
            // end snippet
            #expect(numbers == [1, 2])
        }
    }
}
