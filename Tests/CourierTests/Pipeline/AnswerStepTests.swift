import CourierTestServer
import Foundation
import Testing

@testable import Courier

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The answer-step seam, with the least a cache needs from it: a step that answers a stored URL without the network,
/// hands everything else on, and turns the network's `304` into the answer it stored. Over both transports and the
/// mocks, asserting what the server received and what the plugins and the caller got.
@Suite(.timeLimit(.minutes(HangGuard.minutes))) struct AnswerStepTests {
    /// The stored body, which neither the server nor the mocks ever send.
    static let stored = Data(#"{"from":"the step"}"#.utf8)

    /// Answers a GET for a path in `paths` with ``stored``, and a `304` from `next` with it too.
    struct StoringStep: AnswerStep {
        let paths: Set<String>
        let handedOn = EventLog<String>()

        func send(
            _ request: URLRequest,
            for endpoint: FreeEndpoint,
            options: TransportOptions,
            next: any Transport,
            completion: @escaping @Sendable (Result<TransportResponse, any Error>) -> Void
        ) -> @Sendable () -> Void {
            let url = request.url ?? URL(fileURLWithPath: "/")
            let storedAnswer = TransportResponse(
                url: url,
                statusCode: 200,
                httpVersion: "HTTP/1.1",
                headerFields: ["Content-Type": "application/json"],
                body: AnswerStepTests.stored
            )
            if paths.contains(url.path) {
                completion(.success(storedAnswer))
                return {}
            }
            handedOn.append(url.path)
            return next.send(request, options: options) { answer in
                if case .success(let response) = answer, response.response?.statusCode == 304 {
                    return completion(.success(storedAnswer))
                }
                completion(answer)
            }
        }
    }

    /// What the plugins' `process` saw, as status codes.
    final class StatusRecorder: Plugin<FreeEndpoint>, @unchecked Sendable {
        let statuses = EventLog<Int>()

        override func process(_ attempt: Attempt, endpoint: FreeEndpoint) async -> AttemptDecision {
            statuses.append(attempt.response?.statusCode ?? 0)
            return .proceed
        }
    }

    @Test(arguments: TransportKind.allCases)
    func aStepAnswersWithoutTheNetworkAndTurnsA304IntoItsAnswer(kind: TransportKind) async throws {
        try await TestServer.withServer { server in
            try await kind.withTransport { transport in
                let step = StoringStep(paths: ["/stored"])
                let recorder = StatusRecorder()
                let provider = ApiProvider<FreeEndpoint>(
                    baseUrl: server.baseUrl,
                    plugins: [recorder],
                    transport: transport,
                    answerSteps: [step]
                )
                let fromStep = await provider.rawDataResponse(on: FreeEndpoint(subpath: "stored"))
                let revalidated = await provider.rawDataResponse(on: FreeEndpoint(subpath: "empty/304"))
                let fromServer = await provider.rawDataResponse(on: FreeEndpoint(subpath: "status/404"))
                #expect(fromStep == .success(Self.stored))
                #expect(revalidated == .success(Self.stored))
                #expect(
                    fromServer
                        == .failure(
                            .clientError(statusCode: 404, clientError: TestError(code: 404, message: "status 404"))
                        )
                )
                // The stored path never reached the server; the other two did, once each.
                let paths = await server.receivedRequests().map(\.path)
                #expect(paths == ["/empty/304", "/status/404"])
                #expect(step.handedOn.events == ["/empty/304", "/status/404"])
                #expect(recorder.statuses.events == [200, 200, 404])
            }
        }
    }

    @Test func aStepStandsBeforeTheMocksAsBeforeTheNetwork() async {
        let behavior = MockingBehavior<FreeEndpoint> { _ in MockedResponse(status: .notModified) }
        // Without a base URL of the provider's, the endpoint's own: `https://api.example.com/v1`.
        let step = StoringStep(paths: ["/v1/stored"])
        let provider = ApiProvider<FreeEndpoint>(mockingBehavior: behavior, answerSteps: [step])
        let fromStep = await provider.rawDataResponse(on: FreeEndpoint(subpath: "stored"))
        let revalidated = await provider.rawDataResponse(on: FreeEndpoint(subpath: "mocked"))
        #expect(fromStep == .success(Self.stored))
        #expect(revalidated == .success(Self.stored))
        // Only the request the step handed on was answered by the mocks.
        #expect(behavior.answeredRequests.withLock { $0 } == 1)
        #expect(step.handedOn.events == ["/v1/mocked"])
    }

    /// A transfer answered by a step arrives whole, and goes where the transfer says: here, to a file.
    @Test(arguments: TransportKind.allCases)
    func aDownloadAnsweredByAStepIsWrittenToItsFile(kind: TransportKind) async throws {
        try await TestServer.withServer { server in
            try await TemporaryDirectory.with { directory in
                try await kind.withTransport { transport in
                    let provider = ApiProvider<FreeEndpoint>(
                        baseUrl: server.baseUrl,
                        transport: transport,
                        answerSteps: [StoringStep(paths: ["/stored"])]
                    )
                    let file = directory.file("stored.json")
                    let result = await provider.download(on: FreeEndpoint(subpath: "stored"), to: file)
                    #expect(result.map(\.fileUrl) == .success(file))
                    let written = try Data(contentsOf: file)
                    let received = await server.receivedRequests()
                    #expect(written == Self.stored)
                    #expect(received.isEmpty)
                }
            }
        }
    }
}
