import Courier
import CourierTestServer
import Foundation
import Testing

@testable import Courier

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Notes the multipart temporary file of each request as the plugins see it, and can break the request.
final class BoundaryWatchingPlugin: Plugin<FreeEndpoint>, @unchecked Sendable {
    let files = EventLog<URL>()
    let addsInvalidHeader: Bool

    init(addsInvalidHeader: Bool = false) {
        self.addsInvalidHeader = addsInvalidHeader
    }

    override func modifyRequest(_ request: inout URLRequest, endpoint: FreeEndpoint) {
        if let boundary = request.value(forHTTPHeaderField: "Content-Type")?.components(separatedBy: "boundary=").last {
            files.append(MultipartWriter.temporaryFile(for: boundary))
        }
        if addsInvalidHeader { request.allHTTPHeaderFields?["X-Bad"] = "a\r\nb" }
    }
}

/// A multipart body with file parts is written to a temporary file for sending; it is gone once the request ends,
/// however it ends, and a mocked request never writes one.
@Suite(.timeLimit(.minutes(HangGuard.minutes))) struct TemporaryBodyFileTests {
    static func withPhoto(_ body: (URL) async throws -> Void) async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("courier-\(UUID().uuidString).png")
        try Data([0x89, 0x50, 0x4E, 0x47]).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        try await body(file)
    }

    static func upload(_ photo: URL) -> FreeEndpoint {
        FreeEndpoint(subpath: "echo", method: .post(body: .multipart([.file(name: "photo", url: photo)])))
    }

    @Test func itIsDeletedAfterASuccessfulUpload() async throws {
        try await Self.withPhoto { photo in
            try await TestServer.withServer { server in
                let watcher = BoundaryWatchingPlugin()
                let provider = ApiProvider<FreeEndpoint>(baseUrl: server.baseUrl, plugins: [watcher])
                #expect(await provider.response(on: Self.upload(photo)) == .success(EmptyBodyResponse()))
                #expect(watcher.files.events.count == 1)
                #expect(watcher.files.events.allSatisfy { !FileManager.default.fileExists(atPath: $0.path) })
                #expect(
                    await server.receivedRequests().last?.multipartParts?.first?.body == Data([0x89, 0x50, 0x4E, 0x47])
                )
            }
        }
    }

    @Test func itIsDeletedWhenAPluginMakesTheRequestInvalid() async throws {
        try await Self.withPhoto { photo in
            let watcher = BoundaryWatchingPlugin(addsInvalidHeader: true)
            let provider = ApiProvider<FreeEndpoint>(plugins: [watcher])
            #expect(await provider.response(on: Self.upload(photo)).invalidRequestReason?.contains("X-Bad") == true)
            #expect(watcher.files.events.count == 1)
            #expect(watcher.files.events.allSatisfy { !FileManager.default.fileExists(atPath: $0.path) })
        }
    }

    @Test func itIsDeletedWhenTheRequestIsCancelledBeforeSending() async throws {
        try await Self.withPhoto { photo in
            let watcher = BoundaryWatchingPlugin()
            let provider = ApiProvider<FreeEndpoint>(plugins: [watcher])
            let task = Task {
                withUnsafeCurrentTask { $0?.cancel() }
                return await provider.response(on: Self.upload(photo))
            }
            #expect(await task.value == .failure(.cancelled))
            #expect(watcher.files.events.count == 1)
            #expect(watcher.files.events.allSatisfy { !FileManager.default.fileExists(atPath: $0.path) })
        }
    }

    @Test func itIsDeletedWhenTheServerCannotBeReached() async throws {
        try await Self.withPhoto { photo in
            let watcher = BoundaryWatchingPlugin()
            let provider = ApiProvider<FreeEndpoint>(baseUrl: URL(string: "http://127.0.0.1:9"), plugins: [watcher])
            guard case .failure(.noResponseReceived) = await provider.response(on: Self.upload(photo)) else {
                Issue.record("expected noResponseReceived")
                return
            }
            #expect(watcher.files.events.allSatisfy { !FileManager.default.fileExists(atPath: $0.path) })
        }
    }

    @Test func aMockedRequestKeepsTheBodyInMemoryAndWritesNoFile() async throws {
        try await Self.withPhoto { photo in
            let watcher = BoundaryWatchingPlugin()
            let recorder = RequestRecorderPlugin<FreeEndpoint>()
            let provider = ApiProvider<FreeEndpoint>(
                plugins: [watcher, recorder],
                mockingBehavior: MockingBehavior { _ in MockedResponse(status: .created) }
            )
            #expect(await provider.response(on: Self.upload(photo)) == .success(EmptyBodyResponse()))
            let sent = try #require(recorder.requests.first?.urlRequest)
            let boundary = try #require(
                sent.value(forHTTPHeaderField: "Content-Type")?.components(separatedBy: "boundary=").last
            )
            let parts = ReceivedPart.parse(sent.httpBody ?? Data(), boundary: boundary)
            #expect(parts?.map(\.body) == [Data([0x89, 0x50, 0x4E, 0x47])])
            #expect(watcher.files.events.allSatisfy { !FileManager.default.fileExists(atPath: $0.path) })
        }
    }

    @Test func aBodyAPluginSetsReplacesTheFileBody() async throws {
        try await Self.withPhoto { photo in
            try await TestServer.withServer { server in
                let provider = ApiProvider<FreeEndpoint>(baseUrl: server.baseUrl, plugins: [BodySettingPlugin()])
                let endpoint = FreeEndpoint(subpath: "echo", method: .put(body: .file(photo)))
                #expect(await provider.response(on: endpoint) == .success(EmptyBodyResponse()))
                #expect(await server.receivedRequests().last?.body == Data("signed".utf8))
            }
        }
    }
}

/// Replaces whatever body a request has.
final class BodySettingPlugin: Plugin<FreeEndpoint>, @unchecked Sendable {
    override func modifyRequest(_ request: inout URLRequest, endpoint: FreeEndpoint) {
        request.httpBody = Data("signed".utf8)
    }
}
