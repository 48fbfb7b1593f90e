#if DEBUG
@testable import Courier
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension FuzzTarget {
    /// Any status and body decoded as `[Int]`: the result's case follows the status range, and a 4xx or 5xx error
    /// carries the status it came with.
    ///
    /// Input: the first two bytes pick the status in 100..<600, the rest is the body.
    static let apiError = FuzzTarget(name: "api-error") { input in
        guard input.count >= 2, let url = URL(string: "http://127.0.0.1:8080/items") else { return }
        let statusCode = 100 + (Int(input[0]) << 8 | Int(input[1])) % 500
        let body = Data(input.dropFirst(2))
        let exchange = Exchange(
            data: body,
            head: ResponseHead(url: url, statusCode: statusCode, httpVersion: "HTTP/1.1", headerFields: [:])
        )
        let result = ResponseDecoder.decode(exchange, as: [Int].self, endpoint: FuzzedEndpoint<FuzzedClientError>())
        let matches: Bool
        switch (statusCode, result) {
        case (200..<300, .success): matches = !body.isEmpty
        case (200..<300, .failure(.noDataInResponse(let status))): matches = status == statusCode && body.isEmpty
        case (200..<300, .failure(.responseDataConversionFailed)): matches = !body.isEmpty
        case (400..<500, .failure(.clientError(let status, _))): matches = status == statusCode
        case (500..<600, .failure(.serverError(let status))): matches = status == statusCode
        case (_, .failure(.unexpectedStatusCode(let status))):
            matches = status == statusCode && !(200..<300 ~= status || 400..<600 ~= status)
        default: matches = false
        }
        if !matches {
            preconditionFailure("status \(statusCode) with body hex \(FuzzInput.hex(body)) decoded as \(result)")
        }
    }
}
#endif
