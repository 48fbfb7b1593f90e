import Courier
import Foundation
import Testing

@testable import TodoExample

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Each error says what went wrong in one sentence naming the status, URL or type, prints its case for developers,
/// and compares by case.
@Suite struct ApiErrorTests {
    typealias Error = ApiError<TestError>

    @Test(arguments: [
        (
            Error.invalidRequest(reason: "the base URL \"x\" has no host"),
            "could not be built: the base URL \"x\" has no host"
        ),
        (.noResponseReceived(error: nil), "No response was received."),
        (.cancelled, "cancelled"),
        (.noDataInResponse(statusCode: 200), "200 OK with an empty body"),
        (
            .clientError(statusCode: 404, clientError: TestError(code: 404, message: "gone")),
            "404 Not Found (client error)"
        ),
        (.clientError(statusCode: 418, clientError: nil), "did not decode as TestError"),
        (.serverError(statusCode: 503), "503 Service Unavailable (server error)"),
        (.unexpectedStatusCode(statusCode: 304), "unexpected status 304 Not Modified"),
        (.emptyMockedResponse, "no mocked response"),
    ])
    func describesItselfToUsersInASentence(error: Error, fragment: String) {
        #expect(error.localizedDescription.contains(fragment), "\(error.localizedDescription)")
        #expect(error.errorDescription == error.localizedDescription)
    }

    @Test(arguments: [
        (Error.invalidRequest(reason: "no \"host\""), #"ApiError.invalidRequest(reason: "no \"host\"")"#),
        (.noResponseReceived(error: nil), "ApiError.noResponseReceived(error: nil)"),
        (.noResponseReceived(error: URLError(.timedOut)), "ApiError.noResponseReceived(error: URLError(.timedOut))"),
        (.cancelled, "ApiError.cancelled"),
        (.noDataInResponse(statusCode: 200), "ApiError.noDataInResponse(statusCode: 200)"),
        (
            .responseDataConversionFailed(
                type: "[Todo]",
                error: DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "broken"))
            ),
            #"ApiError.responseDataConversionFailed(type: "[Todo]", error: "#
                + "DecodingError.dataCorrupted: Data was corrupted. Debug description: broken)"
        ),
        (
            .clientError(statusCode: 404, clientError: TestError(code: 404, message: "gone")),
            #"ApiError.clientError(statusCode: 404, clientError: TestError(code: 404, message: "gone"))"#
        ),
        (.clientError(statusCode: 418, clientError: nil), "ApiError.clientError(statusCode: 418, clientError: nil)"),
        (.serverError(statusCode: 503), "ApiError.serverError(statusCode: 503)"),
        (.unexpectedStatusCode(statusCode: 304), "ApiError.unexpectedStatusCode(statusCode: 304)"),
        (
            .unexpectedResponseType(
                response: URLResponse(
                    url: URL(fileURLWithPath: "/a"),
                    mimeType: nil,
                    expectedContentLength: 0,
                    textEncodingName: nil
                )
            ),
            #"ApiError.unexpectedResponseType(response: "file:///a")"#
        ),
        (.responseBodyTooLarge(limit: 16), "ApiError.responseBodyTooLarge(limit: 16)"),
        (
            .pluginFailed(plugin: "RetryPlugin", error: URLError(.cancelled)),
            #"ApiError.pluginFailed(plugin: "RetryPlugin", error: URLError(.cancelled))"#
        ),
        (
            .emptyMockedResponse(endpoint: "TodoApi.list(page: 1)"),
            #"ApiError.emptyMockedResponse(endpoint: "TodoApi.list(page: 1)")"#
        ),
    ])
    func printsItsCaseForDevelopers(error: Error, printed: String) {
        #expect(error.debugDescription == printed)
        #expect("\(error)" == printed)
        #expect(String(describing: Result<Int, Error>.failure(error)) == "failure(\(printed))")
    }

    @Test func transportErrorNamesTheUrl() {
        let url = URL(string: "http://127.0.0.1:1/todos")!
        let urlError = URLError(.cannotConnectToHost, userInfo: [NSURLErrorFailingURLErrorKey: url])
        let error = Error.noResponseReceived(error: urlError)
        #expect(error.localizedDescription.contains("http://127.0.0.1:1/todos"))
    }

    @Test func conversionFailureNamesTheType() {
        let decodingError = DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "broken"))
        let error = Error.responseDataConversionFailed(type: "[Todo]", error: decodingError)
        #expect(error.localizedDescription.contains("[Todo]"))
    }

    @Test func equality() {
        #expect(Error.serverError(statusCode: 500) == .serverError(statusCode: 500))
        #expect(Error.serverError(statusCode: 500) != .serverError(statusCode: 502))
        #expect(Error.serverError(statusCode: 500) != .unexpectedStatusCode(statusCode: 500))
        #expect(Error.noResponseReceived(error: URLError(.timedOut)) == .noResponseReceived(error: URLError(.timedOut)))
        #expect(
            Error.noResponseReceived(error: URLError(.timedOut)) != .noResponseReceived(error: URLError(.cancelled))
        )
        #expect(Error.noResponseReceived(error: nil) != .noResponseReceived(error: URLError(.timedOut)))
        #expect(
            Error.clientError(statusCode: 400, clientError: nil)
                != .clientError(statusCode: 400, clientError: TestError(code: 1, message: ""))
        )
        #expect(Error.cancelled == .cancelled)
    }
}
