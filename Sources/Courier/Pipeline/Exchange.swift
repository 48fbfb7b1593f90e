import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One pass through the pipeline before decoding: the request as sent (if it could be built) and what came
/// back, in the shape plugins know as `urlSessionResult`.
struct Exchange: Sendable {
    var request: URLRequest?
    var data: Data?
    /// The status and headers; the `URLResponse` is made from them only when something asks for it.
    var head: ResponseHead?
    var error: Error?
    /// What took this sending's body, for a download or a stream: the pipeline discards it when the exchange does not
    /// reach the caller.
    var receiver: SendingReceiver?
    /// The request's observation, when its provider has an observing plugin; set when the outcome is delivered.
    var observation: RequestObservation?

    /// The response, made on first use.
    var response: URLResponse? { head?.response }

    init(request: URLRequest? = nil, data: Data? = nil, head: ResponseHead? = nil, error: Error? = nil) {
        self.request = request
        self.data = data
        self.head = head
        self.error = error
    }

    /// The exchange of `request` with a transport's (or the mocks') answer: made here alone, whatever the door.
    init(request: URLRequest, answer: Result<TransportResponse, any Error>) {
        switch answer {
        case .success(let response):
            self.init(request: request, data: response.hasBody ? response.body : nil, head: response.head)
        case .failure(let error):
            self.init(request: request, error: error)
        }
    }
}
