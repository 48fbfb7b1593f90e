import CourierTestServer
import Foundation
import Testing

@testable import Courier

/// Upload and download progress for requests held in memory, from a file and multipart, and for mocks.
@Suite(.serialized, .timeLimit(.minutes(HangGuard.minutes)))
struct ProgressTests {
    static let size = 2 * 1024 * 1024

    enum Body: String, CaseIterable, Sendable {
        case memory, file, multipart
    }

    /// Reports of one direction rise, and the last is the whole body.
    private func checkReports(_ reports: [TransferProgress], total: Int64) {
        let counts = reports.map(\.completedBytes)
        #expect(counts == counts.sorted())
        #expect(reports.last?.completedBytes == total)
        #expect(reports.last?.expectedBytes == total)
        #expect(reports.count <= 110)
    }

    @Test(arguments: TransportKind.allCases, Body.allCases)
    func anUploadReportsItsProgressUpToItsSize(kind: TransportKind, body: Body) async throws {
        try await TestServer.withServer { server in
            try await TemporaryDirectory.with { directory in
                let payload = generatedFile(size: Self.size)
                let file = directory.file("upload.bin")
                try payload.write(to: file)
                let httpBody: HttpBody =
                    switch body {
                    case .memory: .data(payload, contentType: "application/octet-stream")
                    case .file: .file(file)
                    case .multipart: .multipart([.file(name: "upload", url: file)])
                    }
                let reports = Locked<[TransferProgress]>([])
                let report = try await kind.withProvider(TransferApi.self, baseUrl: server.baseUrl) { provider in
                    try await provider.response(on: .upload(httpBody), decodeBodyTo: SinkReport.self) { progress in
                        reports.withLock { $0.append(progress) }
                    }.get()
                }
                let uploads = reports.withLock { $0.filter { $0.direction == .upload } }
                let downloads = reports.withLock { $0.filter { $0.direction == .download } }
                checkReports(uploads, total: Int64(report.bytes))
                if body != .multipart { #expect(report.bytes == Self.size) }
                // The first and the last at least. FoundationNetworking reports a body as libcurl reads it, which
                // may all be before the first report is taken, and does not always report a file it sends; the
                // server's answer then reports it whole.
                #expect(uploads.count >= 2)
                // AsyncHTTPClient sends a body in memory in 64 KiB slices and a file in 1 MiB chunks, each reported;
                // libcurl reports its reads of the body as it sends them.
                if kind != .urlSession { #expect(uploads.count > 2) }
                #expect(downloads.last?.completedBytes ?? 0 > 0)
            }
        }
    }

    @Test(arguments: TransportKind.allCases)
    func aTransferTaskReportsThroughAnAsyncSequence(kind: TransportKind) async throws {
        try await TestServer.withServer { server in
            let (reports, count) = try await kind.withProvider(TransferApi.self, baseUrl: server.baseUrl) { provider in
                let task = provider.responseTask(on: .file(size: Self.size), decodeBodyTo: Data.self)
                var reports: [TransferProgress] = []
                for await progress in task.progress { reports.append(progress) }
                return (reports, try await task.result.get().count)
            }
            #expect(count == Self.size)
            checkReports(reports, total: Int64(Self.size))
            #expect(reports.allSatisfy { $0.direction == .download })
        }
    }

    /// A mocked provider reports when its answer comes: nothing of the answer before the scheduler reaches it.
    @Test func aMockedRequestReportsOnTheScheduler() async throws {
        let scheduler = TestScheduler()
        let provider = ApiProvider<TransferApi>(
            baseUrl: URL(string: "https://example.invalid"),
            mockingBehavior: MockingBehavior(delay: .seconds(1), scheduler: scheduler) { _ in
                MockedResponse(status: .ok, bodyData: Data(repeating: 1, count: 2_000))
            }
        )
        let reports = Locked<[TransferProgress]>([])
        let task = Task {
            await provider.response(on: .upload(.data(Data(repeating: 2, count: 500))), decodeBodyTo: Data.self) {
                progress in reports.withLock { $0.append(progress) }
            }
        }
        await scheduler.waitForPendingWork()
        #expect(
            reports.withLock { $0 } == [TransferProgress(direction: .upload, completedBytes: 0, expectedBytes: 500)]
        )
        await scheduler.advance(by: .seconds(1))
        let result = await task.value
        #expect(try result.get().count == 2_000)
        #expect(
            reports.withLock { $0 } == [
                TransferProgress(direction: .upload, completedBytes: 0, expectedBytes: 500),
                TransferProgress(direction: .upload, completedBytes: 500, expectedBytes: 500),
                TransferProgress(direction: .download, completedBytes: 0, expectedBytes: nil),
                TransferProgress(direction: .download, completedBytes: 2_000, expectedBytes: 2_000),
            ]
        )
    }

    /// The meter reports at most about once per hundredth of the size, and always the end.
    @Test func aLargeTransferIsReportedAboutAHundredTimes() {
        let reports = Locked<[TransferProgress]>([])
        let meter = ProgressMeter(.download) { progress in reports.withLock { $0.append(progress) } }
        let total: Int64 = 1 << 28
        meter.restart(at: 0, expected: total)
        for _ in 0..<(total / 16_384) { meter.add(16_384) }
        meter.end(succeeded: true)
        let counts = reports.withLock { $0.map(\.completedBytes) }
        #expect(counts.count <= 105)
        #expect(counts.last == total)
        #expect(counts == counts.sorted())
    }
}
