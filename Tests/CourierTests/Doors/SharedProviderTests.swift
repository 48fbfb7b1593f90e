import Courier
import CourierTestServer
import Foundation
import Testing

/// One provider shared by many tasks: every caller gets its own answer.
@Suite(.timeLimit(.minutes(HangGuard.minutes))) struct SharedProviderTests {
    @Test func manyTasksShareOneProvider() async throws {
        try await TestServer.withServer { server in
            let provider = ApiProvider<TestApi>(baseUrl: server.baseUrl)
            let mismatches = await withTaskGroup(of: Int.self) { group in
                for index in 0..<200 {
                    group.addTask {
                        let result = await provider.response(
                            on: .echo(query: ["n": .string(String(index))]),
                            decodeBodyTo: ReceivedRequest.self
                        )
                        return (try? result.get().query) == "n=\(index)" ? 0 : 1
                    }
                }
                return await group.reduce(0, +)
            }
            #expect(mismatches == 0)
        }
    }
}
