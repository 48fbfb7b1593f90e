#if Combine
import Courier
import Foundation

#if canImport(Combine)
import Combine
#else
import OpenCombine
#endif

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Microya's Combine door, with its names: the same pipeline as the completion, blocking and `async` doors (plugins,
/// decoding, errors, mocks and the `TestScheduler`), as a publisher.
///
/// Each publisher keeps Combine's contract: nothing is sent until a subscriber asks for a value, so a publisher that
/// is created and dropped sends nothing; each subscription sends its own request, so `retry(_:)` sends again; a
/// subscription receives one value and `.finished`, or one `.failure`; cancelling it cancels the request (the
/// connection is closed) and nothing is delivered afterwards. Values arrive where the completion door delivers
/// them: on a background queue for an answer from the network, inside the scheduler (the `TestScheduler`'s
/// `advance`) for a mocked one with a delay, and during the subscription for a request that could not be built or
/// a mocked one without delay. Use `receive(on:)` to move them, e.g. to the main queue.
extension ApiProvider {
    /// A publisher that sends the request for `endpoint` when a subscriber asks for a value, and publishes the
    /// decoded body or fails with the `ApiError`.
    public func publisher<ResultType: Decodable & SendableMetatype>(
        on endpoint: EndpointType,
        decodeBodyTo: ResultType.Type
    ) -> AnyPublisher<ResultType, ApiError<EndpointType.ClientErrorType>> {
        RequestPublisher { deliver in
            self.performRequest(on: endpoint, decodeBodyTo: ResultType.self) { deliver($0) }
        }
        .eraseToAnyPublisher()
    }

    /// A publisher for an endpoint whose answer has no body of interest; its value is `EmptyBodyResponse`.
    public func publisher(
        on endpoint: EndpointType
    ) -> AnyPublisher<EmptyBodyResponse, ApiError<EndpointType.ClientErrorType>> {
        publisher(on: endpoint, decodeBodyTo: EmptyBodyResponse.self)
    }

    /// A publisher of the raw body of a 2xx answer, without decoding.
    public func rawDataPublisher(
        on endpoint: EndpointType
    ) -> AnyPublisher<Data, ApiError<EndpointType.ClientErrorType>> {
        publisher(on: endpoint, decodeBodyTo: Data.self)
    }

    /// A publisher that sends `endpoint` as a `POST` whose body is a `multipart/form-data` of `params` and `media`,
    /// as `ApiProvider/multipartPublisher(media:params:on:decodeBodyTo:)` does with `await`.
    public func multipartPublisher<ResultType: Decodable & SendableMetatype>(
        media: [MultipartMediaModel],
        params: [String: String]?,
        on endpoint: EndpointType,
        decodeBodyTo: ResultType.Type
    ) -> AnyPublisher<ResultType, ApiError<EndpointType.ClientErrorType>> {
        let method = Self.multipartMethod(media: media, params: params)
        return RequestPublisher { deliver in
            self.performRequest(on: endpoint, method: method, decodeBodyTo: ResultType.self) { deliver($0) }
        }
        .eraseToAnyPublisher()
    }

    /// A publisher of every answer that arrives, whatever its status, as its body and `HTTPURLResponse`: the door
    /// for CombineRequest's operators, `validateStatusCode(in:)`, `hasContentType(_:)` and `decode(type:decoder:)`.
    ///
    /// A 4xx or 5xx answer is a value here, as with `URLSession`'s `dataTaskPublisher`; the stream fails only when
    /// no answer arrived or it was refused on the way: the `ApiError` says why (`ApiError/cancelled`,
    /// `ApiError/noResponseReceived(error:)`, `ApiError/responseBodyTooLarge(limit:)`, a plugin's failure, …).
    /// Plugins see the same typed result as on the other doors, a 4xx as `ApiError/clientError(statusCode:clientError:)`.
    public func dataResponsePublisher(
        on endpoint: EndpointType
    ) -> AnyPublisher<DataResponseTuple, ApiError<EndpointType.ClientErrorType>> {
        RequestPublisher { deliver in
            self.performFullRequest(on: endpoint, decodeBodyTo: Data.self) { answer in
                deliver(Self.dataResponse(of: answer))
            }
        }
        .eraseToAnyPublisher()
    }

    private static func dataResponse(
        of answer: ApiResponse<Data, EndpointType.ClientErrorType>
    ) -> Result<DataResponseTuple, ApiError<EndpointType.ClientErrorType>> {
        switch answer.result {
        case .success(let body):
            guard let response = answer.httpUrlResponse else { return .failure(.noResponseReceived(error: nil)) }
            return .success((body, response))
        case .failure(let error):
            // Only the failures that are judgements of the status: the answer itself arrived whole.
            switch error {
            case .clientError, .serverError, .unexpectedStatusCode:
                guard let response = answer.httpUrlResponse else { return .failure(error) }
                return .success((answer.body ?? Data(), response))
            default:
                return .failure(error)
            }
        }
    }
}
#endif
