import Foundation
import Testing

@testable import TodoExample

@testable import Courier

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Status and body mapped to the typed result, without the network.
@Suite struct ResponseDecoderTests {
    let url = URL(string: "http://127.0.0.1/x")!

    func exchange(_ status: Int, _ body: String?) -> Exchange {
        Exchange(
            request: URLRequest(url: url),
            data: body.map { Data($0.utf8) },
            head: ResponseHead(url: url, statusCode: status, httpVersion: "HTTP/1.1", headerFields: [:])
        )
    }

    func decode<T: Decodable>(_ exchange: Exchange, as type: T.Type) -> Result<T, ApiError<TestError>> {
        ResponseDecoder.decode(exchange, as: type, endpoint: FreeEndpoint())
    }

    @Test func successDecodesTheBody() {
        let result = decode(exchange(200, #"{"id":1,"title":"Buy milk"}"#), as: Todo.self)
        #expect(result == .success(Todo(id: 1, title: "Buy milk")))
    }

    @Test(arguments: [(200, "{}"), (201, nil), (204, nil), (204, ""), (299, "not json")] as [(Int, String?)])
    func emptyBodyResponseAcceptsAnyOrNoBody(status: Int, body: String?) {
        #expect(decode(exchange(status, body), as: EmptyBodyResponse.self) == .success(EmptyBodyResponse()))
    }

    @Test func dataIsReturnedRaw() {
        #expect(decode(exchange(200, "raw \u{1}"), as: Data.self) == .success(Data("raw \u{1}".utf8)))
        #expect(decode(exchange(200, nil), as: Data.self) == .success(Data()))
    }

    @Test(arguments: [nil, ""] as [String?])
    func emptySuccessBodyIsNoData(body: String?) {
        #expect(decode(exchange(200, body), as: Todo.self) == .failure(.noDataInResponse(statusCode: 200)))
    }

    @Test func undecodableSuccessBodyKeepsTheDecodingError() {
        let result = decode(exchange(200, #"{"id":"one"}"#), as: Todo.self)
        guard case .failure(.responseDataConversionFailed(let type, let error)) = result else {
            Issue.record("expected responseDataConversionFailed, got \(result)")
            return
        }
        #expect(type == "Todo")
        #expect(error is DecodingError)
    }

    @Test func clientErrorDecodesTheErrorBody() {
        let result = decode(exchange(404, #"{"code":404,"message":"gone"}"#), as: Todo.self)
        #expect(result == .failure(.clientError(statusCode: 404, clientError: TestError(code: 404, message: "gone"))))
    }

    @Test(arguments: [nil, "", "<html>no</html>"] as [String?])
    func clientErrorWithoutDecodableBodyHasNilError(body: String?) {
        #expect(decode(exchange(422, body), as: Todo.self) == .failure(.clientError(statusCode: 422, clientError: nil)))
    }

    @Test(arguments: [500, 503, 599])
    func serverError(status: Int) {
        #expect(decode(exchange(status, "{}"), as: Todo.self) == .failure(.serverError(statusCode: status)))
    }

    @Test(arguments: [100, 300, 304, 600, 999])
    func otherStatusesAreUnexpected(status: Int) {
        #expect(decode(exchange(status, "{}"), as: Todo.self) == .failure(.unexpectedStatusCode(statusCode: status)))
    }

    @Test func transportErrors() {
        let timeout = Exchange(error: URLError(.timedOut))
        #expect(decode(timeout, as: Todo.self) == .failure(.noResponseReceived(error: URLError(.timedOut))))
        #expect(decode(Exchange(error: URLError(.cancelled)), as: Todo.self) == .failure(.cancelled))
        #expect(decode(Exchange(), as: Todo.self) == .failure(.noResponseReceived(error: nil)))
        let invalid = Exchange(error: InvalidRequestError(reason: "bad"))
        #expect(decode(invalid, as: Todo.self) == .failure(.invalidRequest(reason: "bad")))
    }

    @Test func nonHttpResponseIsUnexpected() {
        let response = URLResponse(url: url, mimeType: nil, expectedContentLength: 0, textEncodingName: nil)
        let result = decode(Exchange(data: Data(), head: ResponseHead(response)), as: Todo.self)
        #expect(result == .failure(.unexpectedResponseType(response: response)))
    }
}
