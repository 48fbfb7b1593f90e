import Courier
import CourierTestServer
import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Microya's multipart door: `multipartPublisher(media:params:on:decodeBodyTo:)` with `MultipartMediaModel`s, as
/// the server receives it.
@Suite struct MultipartMediaModelTests {
    static let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 1, 2, 3])

    @Test func fieldsSortedThenFilesInOrderWithRealNamesAndTypes() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("courier-\(UUID().uuidString).pdf")
        try Data("%PDF-1.7 tiny".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        try await TestServer.withServer { server in
            let provider = ApiProvider<MicroyaStyleApi>(baseUrl: server.baseUrl)
            let received = try await provider.multipartPublisher(
                media: [
                    MultipartMediaModel(withData: Self.png, forKey: "avatar"),
                    MultipartMediaModel(withFilePath: file, forKey: "scan"),
                    MultipartMediaModel(withData: Data([0, 1]), forKey: "blob"),
                ],
                params: ["title": "Zoë", "album": "Beach"],
                on: .show(id: 5),
                decodeBodyTo: ReceivedRequest.self
            ).get()
            #expect(received.method == "POST")
            #expect(received.path == "/echo/notes/5")
            let parts = try #require(received.multipartParts)
            #expect(parts.map(\.name) == ["album", "title", "avatar", "scan", "blob"])
            #expect(parts.map(\.filename) == [nil, nil, "avatar.png", file.lastPathComponent, "blob"])
            #expect(parts.map(\.contentType) == [nil, nil, "image/png", "application/pdf", "application/octet-stream"])
            #expect(
                parts.map(\.body) == [
                    Data("Beach".utf8), Data("Zoë".utf8), Self.png, Data("%PDF-1.7 tiny".utf8), Data([0, 1]),
                ]
            )
        }
    }

    @Test func theMultipartTypeReplacesAContentTypeTheEndpointDeclaresForItsJsonBodies() async throws {
        try await TestServer.withServer { server in
            // TestApi declares `Content-Type: application/json`, as many Microya endpoints do for every case.
            let provider = ApiProvider<TestApi>(baseUrl: server.baseUrl)
            let received = try await provider.multipartPublisher(
                media: [MultipartMediaModel(withData: Data([0, 1]), forKey: "blob")],
                params: nil,
                on: .echo(path: "upload"),
                decodeBodyTo: ReceivedRequest.self
            ).get()
            #expect(received.headerValues("Content-Type").count == 1)
            #expect(received.header("Content-Type")?.hasPrefix("multipart/form-data; boundary=") == true)
            #expect(try #require(received.multipartParts).map(\.name) == ["blob"])
        }
    }

    @Test func anUnreadableFileFailsTheRequestAndNothingIsSent() async throws {
        try await TestServer.withServer { server in
            let provider = ApiProvider<MicroyaStyleApi>(baseUrl: server.baseUrl)
            let missing = URL(fileURLWithPath: "/nonexistent/courier-\(UUID().uuidString).jpg")
            let result = await provider.multipartPublisher(
                media: [MultipartMediaModel(withFilePath: missing, forKey: "photo")],
                params: nil,
                on: .show(id: 1),
                decodeBodyTo: ReceivedRequest.self
            )
            guard case .failure(.invalidRequest(let reason)) = result else {
                Issue.record("expected invalidRequest, got \(result)")
                return
            }
            #expect(reason.contains(missing.path))
            #expect(await server.receivedRequests().isEmpty)
        }
    }

    @Test func aMockedProviderAnswersWithTheEndpointsMockAndThePluginsSeeTheMultipartBody() async throws {
        let recorder = RequestRecorderPlugin<MicroyaStyleApi>()
        let provider = ApiProvider<MicroyaStyleApi>(
            baseUrl: URL(string: "https://api.example.com"),
            plugins: [recorder],
            mockingBehavior: MockingBehavior()
        )
        let note = await provider.multipartPublisher(
            media: [MultipartMediaModel(withData: Self.png, forKey: "avatar")],
            params: ["title": "x"],
            on: .show(id: 2),
            decodeBodyTo: Note.self
        )
        #expect(note == .success(Note(title: "note 2")))
        let sent = try #require(recorder.requests.first?.urlRequest)
        #expect(sent.httpMethod == "POST")
        #expect(sent.value(forHTTPHeaderField: "Content-Type")?.hasPrefix("multipart/form-data; boundary=") == true)
        #expect(sent.httpBody.map { String(decoding: $0, as: UTF8.self).contains("name=\"avatar\"") } == true)
    }
}
