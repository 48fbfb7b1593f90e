import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension ApiError: LocalizedError {
    /// One sentence for the people using the app, saying what went wrong and naming the status, URL or type
    /// involved; `localizedDescription` returns it too. ``debugDescription`` names the case instead.
    public var errorDescription: String? {
        switch self {
        case .invalidRequest(let reason):
            return "The request was not sent because it could not be built: \(reason)."
        case .noResponseReceived(let error?):
            return "No response was received\(Self.failingUrl(of: error)): \(error.localizedDescription)"
        case .noResponseReceived(nil):
            return "No response was received."
        case .cancelled:
            return "The request was cancelled before a response arrived."
        case .noDataInResponse(let statusCode):
            return "The server answered \(HttpStatus(code: statusCode)) with an empty body where one was expected."
        case .responseDataConversionFailed(let type, let error):
            return "The response body could not be decoded as \(type): \(error)."
        case .clientError(let statusCode, let clientError?):
            return "The server answered \(HttpStatus(code: statusCode)) (client error): \(clientError)."
        case .clientError(let statusCode, nil):
            return "The server answered \(HttpStatus(code: statusCode)) (client error) with a body that did not "
                + "decode as \(ClientErrorType.self)."
        case .serverError(let statusCode):
            return "The server answered \(HttpStatus(code: statusCode)) (server error)."
        case .unexpectedStatusCode(let statusCode):
            return "The server answered with the unexpected status \(HttpStatus(code: statusCode))."
        case .unexpectedResponseType(let response):
            return "The response from \(response.url?.absoluteString ?? "an unknown URL") was not an HTTP response."
        case .responseBodyTooLarge(let limit):
            return "The response body was larger than the limit of \(limit) bytes and was not kept."
        case .fileError(let url, let error):
            return "The download could not be written to \(url.path): \(Self.describe(error))"
        case .pluginFailed(let plugin, let error):
            return "The plugin \(plugin) stopped the request: \(Self.describe(error))"
        case .emptyMockedResponse(let endpoint):
            return "The mocked provider has no mocked response for \(endpoint.isEmpty ? "the endpoint" : endpoint): "
                + "return one from the closure given to MockingBehavior, or declare `mockedResponse` in the module "
                + "where the endpoint type conforms to Endpoint (one declared in another module, such as a test "
                + "target, is not used)."
        }
    }

    private static func describe(_ error: Error) -> String {
        if let localized = error as? LocalizedError, let description = localized.errorDescription { return description }
        return "\(error)"
    }

    private static func failingUrl(of error: Error) -> String {
        guard let url = (error as? URLError)?.failingURL?.absoluteString else { return "" }
        return " from \(url)"
    }
}
