import Courier
import CourierOpenAPI
import Foundation
import OpenAPIRuntime
import Testing
import TodoServer

@testable import OpenAPIExample

/// What `swift run --package-path Examples/OpenAPIExample` prints: the generated client over each transport against
/// the examples' to-do server.
@Suite(.timeLimit(.minutes(1))) struct OpenAPIExampleTests {
    @Test func theExampleCallsEveryOperationOverEachTransport() async throws {
        let server = try await TodoServer.start()
        for (name, transport) in Client.exampleTransports() {
            let lines = try await Client.overCourier(serverURL: server.baseUrl, transport: transport).walkThrough()
            #expect(
                lines == [
                    #"  listed ["To-do 1", "To-do 2", "To-do 3"]"#,
                    "  created #42 Buy milk",
                    #"  looked up 7: found(title: "To-do 7")"#,
                    #"  looked up 999: missing(message: "no to-do with id 999")"#,
                    "  deleted 3",
                ],
                "over \(name)"
            )
        }
        await server.stop()
    }

    /// The generated client's test needs no server: the mocks answer by operation, on virtual time.
    @Test func aGeneratedClientIsTestedWithMocks() async throws {
        // snippet: OpenAPI mocks
        let scheduler = TestScheduler()
        let behavior = MockingBehavior<OpenAPIOperation>(delay: .seconds(1), scheduler: scheduler) { operation in
            operation.operationID == "getTodo"
                ? MockedResponse(status: .notFound, bodyJson: #"{"code":404,"message":"gone"}"#)
                : nil
        }
        let client = Client(
            serverURL: URL(string: "https://todos.example.com")!,
            transport: ApiProvider(mockingBehavior: behavior)
        )
        // end snippet
        let lookUp = Task { try await client.lookUp(id: 5) }
        await scheduler.waitForPendingWork()
        await scheduler.advance(by: .seconds(1))
        #expect(try await lookUp.value == .missing(message: "gone"))
    }
}
