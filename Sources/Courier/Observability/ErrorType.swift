import Foundation

/// OpenTelemetry's `error.type` for a failure without an answer: a low-cardinality name, never a message.
enum ErrorType {
    /// `URLError` codes by name (`timedOut`, `cannotConnectToHost`), Courier's own failures by their ``ApiError``
    /// case, anything else `_OTHER`.
    static func of(_ error: any Error) -> String {
        switch error {
        case let urlError as URLError: URLError.Code.names.first { $0.code == urlError.code }?.name ?? "_OTHER"
        case is ResponseBodyTooLargeError: "responseBodyTooLarge"
        case is PluginFailure: "pluginFailed"
        case is FileError: "fileError"
        case is InvalidRequestError: "invalidRequest"
        case is MissingMockedResponseError: "emptyMockedResponse"
        case is UnusableMockedResponseError: "noResponseReceived"
        case is CancellationError: "cancelled"
        default: "_OTHER"
        }
    }
}

extension ApiError {
    /// The case's name, e.g. `clientError`: a metric dimension and a span attribute, so never anything it carries.
    package var kind: String {
        switch self {
        case .invalidRequest: "invalidRequest"
        case .noResponseReceived: "noResponseReceived"
        case .cancelled: "cancelled"
        case .noDataInResponse: "noDataInResponse"
        case .responseDataConversionFailed: "responseDataConversionFailed"
        case .clientError: "clientError"
        case .serverError: "serverError"
        case .unexpectedStatusCode: "unexpectedStatusCode"
        case .unexpectedResponseType: "unexpectedResponseType"
        case .responseBodyTooLarge: "responseBodyTooLarge"
        case .fileError: "fileError"
        case .pluginFailed: "pluginFailed"
        case .emptyMockedResponse: "emptyMockedResponse"
        }
    }
}
