import Courier
import CourierTestServer
import Foundation
import Testing

@testable import TodoExample

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The recorder lists what was sent, in order, as the server received it.
@Suite(.timeLimit(.minutes(HangGuard.minutes))) struct RequestRecorderPluginTests {
    @Test func itRecordsLiveRequestsInOrderAsTheServerReceivedThem() async throws {
        try await TestServer.withServer { server in
            let recorder = RequestRecorderPlugin<TestApi>()
            // The recorder comes first, yet it sees the header a later plugin adds: it records the final request.
            let provider = ApiProvider<TestApi>(
                baseUrl: server.baseUrl,
                plugins: [recorder, RecordingPlugin("p", addsHeader: (name: "X-Trace", value: "t1"))]
            )
            _ = await provider.response(on: .echo(path: "first"))
            _ = await provider.response(on: .echo(.put(Data("body".utf8)), path: "second", query: ["v": "1"]))
            _ = await provider.response(on: .status(404))

            let received = await server.receivedRequests()
            #expect(recorder.requests.map { $0.urlRequest.url?.path } == received.map(\.path))
            #expect(recorder.requests.map { $0.urlRequest.httpMethod } == ["GET", "PUT", "GET"])
            #expect(recorder.requests.map { $0.urlRequest.value(forHTTPHeaderField: "X-Trace") } == ["t1", "t1", "t1"])
            #expect(received.map { $0.header("X-Trace") } == ["t1", "t1", "t1"])
            #expect(recorder.requests[1].urlRequest.httpBody == Data("body".utf8))
            #expect(recorder.endpoints.map(\.subpath) == ["echo/first", "echo/second", "status/404"])
        }
    }

    @Test func itRecordsMockedRequestsButNotOnesThatCouldNotBeBuilt() async {
        let recorder = RequestRecorderPlugin<TodoApi>()
        let provider = ApiProvider<TodoApi>(
            baseUrl: URL(string: "ftp://files.example.com"),
            plugins: [recorder],
            mockingBehavior: MockingBehavior()
        )
        let invalid = await provider.response(on: .list(page: 1), decodeBodyTo: [Todo].self)
        guard case .failure(.invalidRequest) = invalid else {
            Issue.record("expected invalidRequest, got \(invalid)")
            return
        }
        #expect(recorder.requests.isEmpty)

        let mockedProvider = ApiProvider<TodoApi>(plugins: [recorder], mockingBehavior: MockingBehavior())
        _ = await mockedProvider.response(on: .delete(id: 3))
        _ = await mockedProvider.response(on: .list(page: 1), decodeBodyTo: [Todo].self)
        #expect(recorder.endpoints.map { "\($0)" } == ["delete(id: 3)", "list(page: 1)"])
        #expect(recorder.requests.map { $0.urlRequest.httpMethod } == ["DELETE", "GET"])

        recorder.removeAll()
        #expect(recorder.requests.isEmpty)
    }
}
