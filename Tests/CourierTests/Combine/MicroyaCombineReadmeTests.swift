#if Combine
import CourierCombine
import CourierTestServer
import Foundation
import Testing

// Microya's README "Combine Support" example, ported by replacing `import Microya` (and `import Combine`) with
// `import CourierCombine`, which brings Courier, and Combine or, on Linux, OpenCombine with its DispatchQueue
// scheduler. The example as Microya's README prints it compiles with no library: a comma is missing after
// `receiveCompletion`, and `.catch` follows `.sink`, whose `AnyCancellable` has no such operator; here the comma
// is in and the error switch is in `receiveCompletion`. Every operator and scheduler is as the README has it.

private enum MicrosoftTranslatorEndpoint: Endpoint {
    typealias ClientErrorType = TranslatorError

    case translate(texts: [String], from: String, to: [String])

    var subpath: String { "echo/translate" }

    var method: HttpMethod {
        switch self {
        case .translate(let texts, _, _): .post(body: .json(texts.map { ["Text": $0] }))
        }
    }

    var queryParameters: [String: QueryParameterValue] {
        switch self {
        case .translate(_, let sourceLanguage, let targetLanguages):
            ["api-version": "3.0", "from": .string(sourceLanguage), "to": .array(targetLanguages)]
        }
    }
}

private struct TranslatorError: Decodable, Sendable {
    let code: Int
    let message: String
}

/// The loopback server's echo of the request, standing in for the translator's answer.
private struct TranslationsResponse: Decodable, Sendable {
    let path: String
    let query: String?
}

private final class ErrorLogger: Sendable {
    let handled = EventLog<String>()
    func handleApiError(_ apiError: ApiError<TranslatorError>) { handled.append("\(apiError)") }
}

@Suite struct MicroyaCombineReadmeTests {
    @Test func theReadmeExampleRunsWithOnlyTheImportChanged() async throws {
        try await TestServer.withServer { server in
            let provider = ApiProvider<MicrosoftTranslatorEndpoint>(baseUrl: server.baseUrl)
            let endpoint = MicrosoftTranslatorEndpoint.translate(texts: ["Hallo"], from: "de", to: ["en", "fr"])
            let logger = ErrorLogger()
            let received = EventLog<TranslationsResponse>()
            let shown = EventLog<String>()
            let keeper = SubscriptionKeeper()

            let finished: Void = await withCheckedContinuation { continuation in
                // As in Microya's README, from here:
                var cancellables: Set<AnyCancellable> = []

                provider.publisher(on: endpoint, decodeBodyTo: TranslationsResponse.self)
                    .debounce(for: .seconds(0.5), scheduler: DispatchQueue.main)
                    .subscribe(on: DispatchQueue.global())
                    .receive(on: DispatchQueue.main)
                    .sink(
                        receiveCompletion: { completion in
                            if case .failure(let apiError) = completion {
                                switch apiError {
                                case let .clientError(statusCode, clientError):
                                    // show an alert to customer with status code & data from clientError body
                                    shown.append("\(statusCode) \(clientError?.message ?? "")")
                                default:
                                    logger.handleApiError(apiError)
                                }
                            }
                            continuation.resume()
                        },
                        receiveValue: { (translationsResponse: TranslationsResponse) in
                            // do something with the success response object
                            received.append(translationsResponse)
                        }
                    )
                    .store(in: &cancellables)
                // … to here.
                // The README keeps them in a property; the test keeps them until the stream has ended.
                cancellables.forEach(keeper.keep)
            }
            withExtendedLifetime(keeper) {}
            _ = finished
            let sent = await server.receivedRequests()
            #expect(sent.map(\.path) == ["/echo/translate"])
            #expect(sent.first?.query == "api-version=3.0&from=de&to=en&to=fr")
            // `debounce` drops a value that is still waiting out its interval when the stream finishes, and a
            // request's stream finishes right after its one value: the README's chain delivers nothing, with
            // Microya as with Courier. Without `debounce`, below, the value arrives.
            #expect(received.events.isEmpty)
            #expect(shown.events.isEmpty)
            #expect(logger.handled.events.isEmpty)
        }
    }
    @Test func withoutDebounceTheValueArrivesOnTheMainQueue() async throws {
        try await TestServer.withServer { server in
            let provider = ApiProvider<MicrosoftTranslatorEndpoint>(baseUrl: server.baseUrl)
            let endpoint = MicrosoftTranslatorEndpoint.translate(texts: ["Hallo"], from: "de", to: ["en"])
            let received = EventLog<String>()
            let keeper = SubscriptionKeeper()
            // On Linux the main queue is drained by a worker thread once `main` has handed over to Dispatch, so
            // `Thread.isMainThread` says nothing; a mark on the queue does.
            let mainQueueMark = DispatchSpecificKey<Bool>()
            DispatchQueue.main.setSpecific(key: mainQueueMark, value: true)
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let cancellable = provider.publisher(on: endpoint, decodeBodyTo: TranslationsResponse.self)
                    .subscribe(on: DispatchQueue.global())
                    .receive(on: DispatchQueue.main)
                    .sink(
                        receiveCompletion: { _ in continuation.resume() },
                        receiveValue: { response in
                            received.append(
                                "\(response.path) main: \(DispatchQueue.getSpecific(key: mainQueueMark) ?? false)"
                            )
                        }
                    )
                keeper.keep(cancellable)
            }
            withExtendedLifetime(keeper) {}
            #expect(received.events == ["/echo/translate main: true"])
        }
    }
}
#endif
