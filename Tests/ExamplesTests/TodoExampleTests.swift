import CourierTestServer
import Foundation
import Testing

/// `swift run TodoExample`, as the README says to run it: the example starts its loopback server and prints what
/// each door got.
@Suite(.timeLimit(.minutes(HangGuard.minutes))) struct TodoExampleTests {
    @Test func theExampleRunsEveryDoorAgainstItsOwnServer() throws {
        let run = try ExampleRun("TodoExample")
        #expect(run.status == 0)
        for line in [
            #"  listed ["To-do 1", "To-do 2", "To-do 3"]"#,
            "  created #42 Buy milk",
            "  deleted: success(Courier.EmptyBodyResponse())",
            #"  for users: The server answered 404 Not Found (client error): "#
                + #"TodoError(code: 404, message: "no to-do with id 999")."#,
            #"  for developers: ApiError.clientError(statusCode: 404, "#
                + #"clientError: TodoError(code: 404, message: "no to-do with id 999"))"#,
            "  status 404, server says: no to-do with id 999",
            "  completion door: To-do 1",
            "  wait door: 3 to-dos on page 2",
        ] {
            #expect(run.printed.contains(line + "\n"), "missing \(line) in:\n\(run.printed)")
        }
    }
}
