import CourierTestServer
import Foundation
import Testing

@testable import Courier

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Downloads to a file over both transports, against the loopback server's generated files.
@Suite(.serialized, .timeLimit(.minutes(HangGuard.minutes)))
struct DownloadTests {
    static let size = 1024 * 1024

    @Test(arguments: TransportKind.allCases)
    func aDownloadArrivesWholeWithProgressUpToItsSize(kind: TransportKind) async throws {
        try await TestServer.withServer { server in
            try await TemporaryDirectory.with { directory in
                let destination = directory.file("data.bin")
                let reports = Locked<[TransferProgress]>([])
                let result = try await kind.withProvider(TransferApi.self, baseUrl: server.baseUrl) { provider in
                    await provider.download(on: .file(size: Self.size), to: destination) { progress in
                        reports.withLock { $0.append(progress) }
                    }
                }
                let downloaded = try result.get()
                #expect(downloaded.fileUrl == destination.standardizedFileURL)
                #expect(downloaded.byteCount == Int64(Self.size))
                #expect(downloaded.resumedFrom == 0)
                #expect(downloaded.response.statusCode == 200)
                #expect(try Data(contentsOf: destination) == generatedFile(size: Self.size))
                #expect(try directory.contents() == ["data.bin"])
                #expect(reports.withLock { $0 }.allSatisfy { $0.direction == .download })
                let counts = reports.withLock { $0.map(\.completedBytes) }
                #expect(counts == counts.sorted())
                #expect(
                    reports.withLock { $0.last }
                        == TransferProgress(
                            direction: .download,
                            completedBytes: Int64(Self.size),
                            expectedBytes: Int64(Self.size)
                        )
                )
                // Rate-limited: about one report per hundredth, not one per network read.
                #expect(counts.count <= 110)
                #expect(counts.count >= 2)
            }
        }
    }

    @Test(arguments: TransportKind.allCases)
    func anAnswerThatIsNotTwoHundredIsNotWrittenAndDecodesAsTheClientError(kind: TransportKind) async throws {
        try await TestServer.withServer { server in
            try await TemporaryDirectory.with { directory in
                let destination = directory.file("data.bin")
                try Data("kept".utf8).write(to: destination)
                let result = try await kind.withProvider(TransferApi.self, baseUrl: server.baseUrl) { provider in
                    await provider.download(on: .status(404), to: destination)
                }
                guard case .failure(.clientError(404, let error?)) = result else {
                    Issue.record("Expected a decoded 404, got \(result)")
                    return
                }
                #expect(error.code == 404)
                #expect(try Data(contentsOf: destination) == Data("kept".utf8))
                #expect(try directory.contents() == ["data.bin"])
            }
        }
    }

    @Test(arguments: TransportKind.allCases)
    func aCutDownloadLeavesTheDestinationAsItWasAndNoPartialFile(kind: TransportKind) async throws {
        try await TestServer.withServer { server in
            try await TemporaryDirectory.with { directory in
                let destination = directory.file("data.bin")
                try Data("kept".utf8).write(to: destination)
                let result = try await kind.withProvider(TransferApi.self, baseUrl: server.baseUrl) { provider in
                    await provider.download(on: .file(size: Self.size, options: ["cutAt": "1000000"]), to: destination)
                }
                guard case .failure(.noResponseReceived) = result else {
                    Issue.record("Expected the cut to fail the download, got \(result)")
                    return
                }
                #expect(try Data(contentsOf: destination) == Data("kept".utf8))
                #expect(try directory.contents() == ["data.bin"])
            }
        }
    }

    /// Cut by the server at 40 %, continued from there with `Range` and `If-Range`: the file is byte-identical.
    @Test(arguments: TransportKind.allCases, ["etag", "lastModified"])
    func aResumableDownloadCutAtFortyPercentContinuesToAnIdenticalFile(
        kind: TransportKind,
        validator: String
    ) async throws {
        try await TestServer.withServer { server in
            try await TemporaryDirectory.with { directory in
                let destination = directory.file("data.bin")
                let cutAt = Self.size * 4 / 10
                let value = validator == "etag" ? "v1" : "Mon, 23 Nov 2026 10:00:00 GMT"
                let options = DownloadOptions(resumable: true)
                let (first, second, keptBytes) = try await kind.withProvider(TransferApi.self, baseUrl: server.baseUrl)
                { provider in
                    let first = await provider.download(
                        on: .file(size: Self.size, options: [validator: value, "cutAt": "\(cutAt)"]),
                        to: destination,
                        options: options
                    )
                    let kept = try directory.contents()
                    #expect(kept == [".data.bin.courier-partial", ".data.bin.courier-partial.json"])
                    // What reached the client before the cut: up to 40 %, less what was still in flight.
                    let keptBytes =
                        try FileManager.default.attributesOfItem(
                            atPath: directory.file(".data.bin.courier-partial").path
                        )[.size] as? Int ?? 0
                    #expect(keptBytes > 0 && keptBytes <= cutAt)
                    let second = await provider.download(
                        on: .file(size: Self.size, options: [validator: value]),
                        to: destination,
                        options: options
                    )
                    return (first, second, keptBytes)
                }
                guard case .failure(.noResponseReceived) = first else {
                    Issue.record("Expected the cut to fail the first download, got \(first)")
                    return
                }
                let downloaded = try second.get()
                #expect(downloaded.response.statusCode == 206)
                #expect(downloaded.resumedFrom == Int64(keptBytes))
                #expect(downloaded.byteCount == Int64(Self.size))
                #expect(try Data(contentsOf: destination) == generatedFile(size: Self.size))
                #expect(try directory.contents() == ["data.bin"])
                let requests = await server.receivedRequests()
                #expect(requests.last?.header("Range") == "bytes=\(keptBytes)-")
                #expect(requests.last?.header("If-Range") == (validator == "etag" ? "\"v1\"" : value))
            }
        }
    }

    /// A server that answers the whole file (`200`) to a range, because it does not serve ranges or the file
    /// changed, starts the file again.
    @Test(arguments: TransportKind.allCases, [["ranges": "false", "etag": "v1"], ["etag": "v2"]])
    func aWholeAnswerToARangeStartsTheFileAgain(kind: TransportKind, secondOptions: [String: String]) async throws {
        try await TestServer.withServer { server in
            try await TemporaryDirectory.with { directory in
                let destination = directory.file("data.bin")
                let options = DownloadOptions(resumable: true)
                let second = try await kind.withProvider(TransferApi.self, baseUrl: server.baseUrl) { provider in
                    _ = await provider.download(
                        on: .file(size: Self.size, options: ["etag": "v1", "cutAt": "\(Self.size / 2)"]),
                        to: destination,
                        options: options
                    )
                    return await provider.download(
                        on: .file(size: Self.size, options: secondOptions),
                        to: destination,
                        options: options
                    )
                }
                let downloaded = try second.get()
                #expect(downloaded.response.statusCode == 200)
                #expect(downloaded.resumedFrom == 0)
                #expect(try Data(contentsOf: destination) == generatedFile(size: Self.size))
                #expect(try directory.contents() == ["data.bin"])
                let range = await server.receivedRequests().last?.header("Range")
                #expect(range?.hasPrefix("bytes=") == true && range != "bytes=0-")
            }
        }
    }

    @Test(arguments: TransportKind.allCases)
    func aCancelledDownloadLeavesNoFile(kind: TransportKind) async throws {
        try await TestServer.withServer { server in
            try await TemporaryDirectory.with { directory in
                let destination = directory.file("data.bin")
                let result = try await kind.withProvider(TransferApi.self, baseUrl: server.baseUrl) { provider in
                    let task = provider.downloadTask(on: .hold(id: "download-\(kind)"), to: destination)
                    for await progress in task.progress where progress.completedBytes > 0 {
                        task.cancel()
                    }
                    await server.waitForDisconnect(of: "download-\(kind)")
                    return await task.result
                }
                #expect(result.failureKind == "cancelled")
                #expect(try directory.contents() == [])
            }
        }
    }

    @Test(arguments: TransportKind.allCases)
    func aDownloadThatGoesQuietTimesOutAndLeavesNoFile(kind: TransportKind) async throws {
        try await TestServer.withServer { server in
            try await TemporaryDirectory.with { directory in
                let destination = directory.file("data.bin")
                let result = try await kind.withProvider(TransferApi.self, baseUrl: server.baseUrl) { provider in
                    await provider.download(
                        // The first byte comes at once, the next after ten minutes: only the timeout ends the wait.
                        on: .drip(bytes: 5, intervalMs: 600_000, idleTimeout: .milliseconds(300)),
                        to: destination
                    )
                }
                guard case .failure(.noResponseReceived(let error as URLError)) = result else {
                    Issue.record("Expected a timeout, got \(result)")
                    return
                }
                #expect(error.code == .timedOut)
                #expect(try directory.contents() == [])
            }
        }
    }

    @Test(arguments: TransportKind.allCases, [true, false])
    func aDownloadOverItsSizeLimitFailsAndLeavesNoFile(kind: TransportKind, announced: Bool) async throws {
        try await TestServer.withServer { server in
            try await TemporaryDirectory.with { directory in
                let destination = directory.file("data.bin")
                let result = try await kind.withProvider(TransferApi.self, baseUrl: server.baseUrl) { provider in
                    await provider.download(
                        on: .bytes(count: 300_000, announce: announced),
                        to: destination,
                        options: DownloadOptions(maximumSize: 100_000)
                    )
                }
                #expect(result.failureKind == "responseBodyTooLarge")
                #expect(try directory.contents() == [])
            }
        }
    }

    @Test(arguments: TransportKind.allCases)
    func aDestinationInAMissingDirectoryFailsWithAFileError(kind: TransportKind) async throws {
        try await TestServer.withServer { server in
            try await TemporaryDirectory.with { directory in
                let destination = directory.file("missing/data.bin")
                let result = try await kind.withProvider(TransferApi.self, baseUrl: server.baseUrl) { provider in
                    await provider.download(on: .file(size: 1_000), to: destination)
                }
                guard case .failure(.fileError(let url, _)) = result else {
                    Issue.record("Expected a file error, got \(result)")
                    return
                }
                #expect(url.deletingLastPathComponent().lastPathComponent == "missing")
            }
        }
    }

    @Test func aMockedDownloadWritesTheMockedBodyAndReportsOnTheScheduler() async throws {
        try await TemporaryDirectory.with { directory in
            let scheduler = TestScheduler()
            let provider = ApiProvider<TransferApi>(
                baseUrl: URL(string: "https://example.invalid"),
                mockingBehavior: MockingBehavior(delay: .seconds(2), scheduler: scheduler) { _, _, _ in
                    MockedResponse(status: .ok, bodyData: Data(repeating: 7, count: 5_000))
                }
            )
            let reports = Locked<[TransferProgress]>([])
            let outcome = Locked<Result<DownloadedFile, ApiError<TestError>>?>(nil)
            provider.download(on: .file(size: 0), to: directory.file("mocked.bin")) { progress in
                reports.withLock { $0.append(progress) }
            } completion: { result in
                outcome.withLock { $0 = result }
            }
            #expect(reports.withLock { $0 }.allSatisfy { $0.direction == .upload })
            #expect(outcome.withLock { $0 } == nil)
            scheduler.advance(by: .seconds(2))
            let downloaded = try #require(outcome.withLock { $0 }).get()
            #expect(downloaded.byteCount == 5_000)
            let written = try Data(contentsOf: directory.file("mocked.bin"))
            #expect(written == Data(repeating: 7, count: 5_000))
            #expect(
                reports.withLock { $0.last }
                    == TransferProgress(direction: .download, completedBytes: 5_000, expectedBytes: 5_000)
            )
        }
    }
}

extension Result where Failure == ApiError<TestError> {
    /// The failure's case name, or `nil` for a success.
    var failureKind: String? {
        guard case .failure(let error) = self else { return nil }
        return error.kind
    }
}
