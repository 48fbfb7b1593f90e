import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension ApiProvider {
    /// Sends the request for `endpoint` and returns the decoded body or the error.
    ///
    /// Cancelling the awaiting task cancels the request (its connection is closed) and returns
    /// ``ApiError/cancelled`` promptly.
    public func response<ResultType: Decodable>(
        on endpoint: EndpointType,
        decodeBodyTo: ResultType.Type
    ) async -> TypedResult<ResultType> {
        finish(await exchange(for: endpoint), endpoint: endpoint)
    }

    /// Sends the request for an endpoint whose answer has no body of interest; success is ``EmptyBodyResponse``.
    public func response(on endpoint: EndpointType) async -> TypedResult<EmptyBodyResponse> {
        await response(on: endpoint, decodeBodyTo: EmptyBodyResponse.self)
    }

    /// Sends the request and returns the raw body, without decoding.
    public func rawDataResponse(on endpoint: EndpointType) async -> TypedResult<Data> {
        await response(on: endpoint, decodeBodyTo: Data.self)
    }

    /// Sends the request and returns the typed result together with the request as sent, the HTTP response
    /// and the raw body, e.g. to read the body of a 4xx or 5xx answer that ``ApiError`` does not carry.
    public func fullResponse<ResultType: Decodable>(
        on endpoint: EndpointType,
        decodeBodyTo: ResultType.Type
    ) async -> ApiResponse<ResultType, EndpointType.ClientErrorType> {
        fullResponse(of: await exchange(for: endpoint), endpoint: endpoint)
    }

    /// The decoded result (plugins' `didPerformRequest` included) with the request, response and raw body.
    func fullResponse<ResultType: Decodable>(
        of exchange: Exchange,
        endpoint: EndpointType
    ) -> ApiResponse<ResultType, EndpointType.ClientErrorType> {
        ApiResponse(
            result: finish(exchange, endpoint: endpoint),
            request: exchange.request,
            httpUrlResponse: exchange.response as? HTTPURLResponse,
            body: exchange.data
        )
    }
}
