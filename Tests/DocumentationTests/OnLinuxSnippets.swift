import Courier
import CourierTestServer
import Foundation
import Testing

@testable import TodoExample

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// snippet: trace header plugin
final class TraceHeaderPlugin: Plugin<TodoApi>, @unchecked Sendable {
    let traceId: @Sendable () -> String

    init(traceId: @escaping @Sendable () -> String) {
        self.traceId = traceId
    }

    override func modifyRequest(_ request: inout URLRequest, endpoint: TodoApi) {
        // Not setValue(_:forHTTPHeaderField:): on Linux it drops a value with CR or LF without a word.
        var fields = request.allHTTPHeaderFields ?? [:]
        fields["X-Trace-Id"] = traceId()
        request.allHTTPHeaderFields = fields
    }
}
// end snippet

/// The On Linux article's plugin, against the loopback server.
@Suite struct OnLinuxSnippets {
    @Test func aHeaderSetThroughAllHeaderFieldsArrivesOrIsRefused() async throws {
        try await TestServer.withServer { server in
            let traced = ApiProvider<TodoApi>(baseUrl: server.baseUrl, plugins: [TraceHeaderPlugin { "t-1" }])
            _ = try await traced.response(on: .show(id: 1), decodeBodyTo: Todo.self).get()
            #expect(await server.receivedRequests().map { $0.header("X-Trace-Id") } == ["t-1"])

            let injected = ApiProvider<TodoApi>(
                baseUrl: server.baseUrl,
                plugins: [TraceHeaderPlugin { "t-2\r\nX-Admin: 1" }]
            )
            let refused = await injected.response(on: .show(id: 1), decodeBodyTo: Todo.self)
            #expect(
                refused
                    == .failure(.invalidRequest(reason: #"the value of header "X-Trace-Id" contains CR, LF or NUL"#))
            )
            #expect(await server.receivedRequests().count == 1)
        }
    }
}
