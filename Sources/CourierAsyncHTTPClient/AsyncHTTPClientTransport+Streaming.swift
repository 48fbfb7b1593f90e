#if AsyncHTTPClient
import AsyncHTTPClient
import Courier
import Foundation
import NIOCore
import NIOHTTP1

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The path of a request whose answer is handed on as it arrives, or whose upload is reported.
extension AsyncHTTPClientTransport {
    /// Sends `outgoing` with its body handed to the options' receiver as it arrives, or its upload reported.
    func stream(
        _ outgoing: HTTPClient.Request,
        bodyEnd: RequestBodyEnd?,
        of request: URLRequest,
        options: TransportOptions,
        completion: @escaping @Sendable (Result<TransportResponse, any Error>) -> Void
    ) -> @Sendable () -> Void {
        let outcome = DeliverOnce(completion)
        let limit = options.maximumResponseBodySize
        let delegate = StreamingDelegate(
            url: outgoing.url,
            method: outgoing.method,
            options: options,
            uploadSize: options.requestBody?.length ?? Courier.uploadSize(of: request, bodyFile: options.bodyFile),
            bodyEnd: bodyEnd
        )
        let task = client.execute(request: outgoing, delegate: delegate, eventLoop: preference(for: bodyEnd))
        task.futureResult.whenComplete { result in
            outcome.deliver(
                result.mapError { delegate.receiverError ?? TransportErrors.urlError(for: $0, limit: limit) }
            )
        }
        return {
            if outcome.deliver(.failure(URLError(.cancelled))) { task.cancel() }
        }
    }
}
#endif
