#if AsyncHTTPClient
import AsyncHTTPClient
import Courier
import CourierAsyncHTTPClient
import CourierTestServer
import Foundation
import Testing

/// A file upload over AsyncHTTPClient gives its connection back to the pool when it is answered.
// The time limit (the hang guard) is longer than an upload's timeout (half of it), so that an upload left waiting for
// the pool fails here rather than at the limit.
@Suite(.timeLimit(.minutes(HangGuard.minutes))) struct UploadConnectionReuseTests {
    /// AsyncHTTPClient 1.37 can finish a request whose answer it had buffered before the end of the request body
    /// reached it; it then drops that end and keeps the connection leased for good. About one upload in four did so
    /// against this server, so with a pool of one connection an upload soon waited for a connection until its timeout.
    /// Forty uploads in a row must all be answered, over the one connection the server accepted.
    @Test(arguments: [4 << 10, 3 << 20])
    func uploadsInARowShareOneConnection(size: Int) async throws {
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = 1
        // The connect timeout also bounds a wait for the pool: the same as the uploads' own timeout.
        configuration.timeout.connect = .seconds(Int64(HangGuard.seconds / 2))
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("courier-upload-\(UUID().uuidString)")
        do {
            try Data((0..<size).map { UInt8(truncatingIfNeeded: $0) }).write(to: file)
            try await HostileServer.withServer { server in
                let provider = ApiProvider<UploadApi>(transport: AsyncHTTPClientTransport(client: client))
                let endpoint = UploadApi(baseUrl: server.baseUrl, file: file)
                for index in 0..<40 {
                    let result = await provider.response(on: endpoint, decodeBodyTo: [Int].self)
                    guard case .success([1, 2, 3]) = result else {
                        Issue.record("upload \(index) got \(result)")
                        break
                    }
                }
                #expect(server.requestCounts[.none] == 40)
                #expect(server.acceptedConnections == 1)
            }
        } catch {
            Issue.record(error)
        }
        try? FileManager.default.removeItem(at: file)
        try await client.shutdown()
    }

    private struct UploadApi: Endpoint {
        typealias ClientErrorType = FaultMessage
        let baseUrl: URL
        let file: URL
        var subpath: String { Fault.none.path }
        var method: HttpMethod { .post(body: .multipart([.file(name: "file", url: file)])) }
        // A connection kept by the client shows as a wait for the pool, ended here as a failure, at half the hang
        // guard: an upload that is answered never comes near it, however slow the machine.
        var timeout: Duration? { HangGuard.duration / 2 }
    }
}
#endif
