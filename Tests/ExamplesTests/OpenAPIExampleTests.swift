import Courier
import CourierOpenAPI
import Foundation
import OpenAPIRuntime
import Testing

@testable import OpenAPIExample

/// `swift run OpenAPIExample`: the generated client over both transports against the example's own server.
@Suite(.timeLimit(.minutes(1))) struct OpenAPIExampleTests {
    @Test func theExampleCallsEveryOperationOverBothTransports() throws {
        let run = try ExampleRun("OpenAPIExample")
        #expect(run.status == 0)
        for transport in ["URLSession", "AsyncHTTPClient"] {
            let lines = [
                "over \(transport):",
                #"  listed ["To-do 1", "To-do 2", "To-do 3"]"#,
                "  created #42 Buy milk",
                #"  looked up 7: found(title: "To-do 7")"#,
                #"  looked up 999: missing(message: "no to-do with id 999")"#,
                "  deleted 3",
            ]
            #expect(
                run.printed.contains(lines.joined(separator: "\n") + "\n"),
                "missing \(transport) in:\n\(run.printed)"
            )
        }
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
