import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Turns what the transport delivered into the typed result, by status range:
/// 2xx decodes the value, 4xx decodes `ClientErrorType`, 5xx is a server error, anything else unexpected.
enum ResponseDecoder {
    static func decode<ResultType: Decodable, EndpointType: Endpoint>(
        _ exchange: Exchange,
        as type: ResultType.Type,
        endpoint: EndpointType
    ) -> Result<ResultType, ApiError<EndpointType.ClientErrorType>> {
        if let error = exchange.error {
            return .failure(mapTransportError(error))
        }
        guard let head = exchange.head else { return .failure(.noResponseReceived(error: nil)) }
        // The status alone: asking for the `URLResponse` would make one, which decoding does not need.
        guard let statusCode = head.statusCode else {
            guard let response = head.response else { return .failure(.noResponseReceived(error: nil)) }
            return .failure(.unexpectedResponseType(response: response))
        }
        let body = exchange.data ?? Data()
        switch statusCode {
        case 200..<300:
            return decodeSuccess(body, statusCode: statusCode, as: type, decoder: endpoint.decoder)
        case 400..<500:
            let clientError = try? endpoint.decoder.decode(EndpointType.ClientErrorType.self, from: body)
            return .failure(.clientError(statusCode: statusCode, clientError: clientError))
        case 500..<600:
            return .failure(.serverError(statusCode: statusCode))
        default:
            return .failure(.unexpectedStatusCode(statusCode: statusCode))
        }
    }

    private static func decodeSuccess<ResultType: Decodable, ClientErrorType>(
        _ body: Data,
        statusCode: Int,
        as type: ResultType.Type,
        decoder: JSONDecoder
    ) -> Result<ResultType, ApiError<ClientErrorType>> {
        // Metatypes first: a failing dynamic cast on every decoded answer costs more than comparing two pointers.
        if ResultType.self == EmptyBodyResponse.self, let empty = EmptyBodyResponse() as? ResultType {
            return .success(empty)
        }
        if ResultType.self == Data.self, let raw = body as? ResultType { return .success(raw) }
        guard !body.isEmpty else { return .failure(.noDataInResponse(statusCode: statusCode)) }
        do {
            return .success(try decoder.decode(type, from: body))
        } catch {
            return .failure(.responseDataConversionFailed(type: String(describing: type), error: error))
        }
    }

    static func mapTransportError<ClientErrorType>(_ error: Error) -> ApiError<ClientErrorType> {
        if let invalid = error as? InvalidRequestError { return .invalidRequest(reason: invalid.reason) }
        if let fileError = error as? FileError { return .fileError(url: fileError.url, error: fileError.error) }
        if let failure = error as? PluginFailure { return .pluginFailed(plugin: failure.plugin, error: failure.error) }
        if let tooLarge = error as? ResponseBodyTooLargeError { return .responseBodyTooLarge(limit: tooLarge.limit) }
        if let missing = error as? MissingMockedResponseError {
            return .emptyMockedResponse(endpoint: missing.endpoint)
        }
        if let urlError = error as? URLError, urlError.code == .cancelled { return .cancelled }
        if error is CancellationError { return .cancelled }
        return .noResponseReceived(error: error)
    }
}
