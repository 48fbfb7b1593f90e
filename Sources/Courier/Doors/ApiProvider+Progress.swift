import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension ApiProvider {
    /// Sends the request for `endpoint`, as ``response(on:decodeBodyTo:)`` does, and reports how far its body has
    /// gone out and its answer has come in: for uploads (in memory, a file, multipart) and answers held in memory.
    ///
    /// Upload reports come as the transport sends (the last one when the server answers 2xx, which it does once it
    /// has the body); download reports as the body arrives. Both are few (see ``TransferProgress``), and on success
    /// the last of each equals its total. A retried request counts again from zero. A mocked provider reports when
    /// its answer comes, on its scheduler.
    public func response<ResultType: Decodable>(
        on endpoint: EndpointType,
        decodeBodyTo: ResultType.Type,
        progress: @escaping @Sendable (TransferProgress) -> Void
    ) async -> TypedResult<ResultType> {
        let plan = TransferPlan(destination: .memory, progress: progress)
        let exchange = await exchange(for: endpoint, transfer: plan)
        let result = finish(exchange, endpoint: endpoint) as TypedResult<ResultType>
        plan.end(succeeded: (try? result.get()) != nil)
        return result
    }

    /// Starts the request for `endpoint` and returns at once, with its progress to read as an `AsyncSequence` and
    /// its result to await: ``response(on:decodeBodyTo:progress:)`` as a task, as ``downloadTask(on:to:options:)``
    /// is ``download(on:to:options:progress:)`` as one.
    public func responseTask<ResultType: Decodable & Sendable>(
        on endpoint: EndpointType,
        decodeBodyTo: ResultType.Type
    ) -> TransferTask<ResultType, EndpointType.ClientErrorType> {
        TransferTask { handle, report, completion in
            let plan = TransferPlan(destination: .memory, progress: report)
            // Decoded off the transport's thread, which serves other requests meanwhile.
            start(endpoint, transfer: plan, handle: handle, transportDeliveryQueue: .global()) { exchange in
                let result = self.finish(exchange, endpoint: endpoint) as TypedResult<ResultType>
                plan.end(succeeded: (try? result.get()) != nil)
                completion(result)
            }
        }
    }

    /// Starts downloading `endpoint`'s answer into `destination` and returns at once, with the progress to read as
    /// an `AsyncSequence` and the result to await; see ``download(on:to:options:progress:)``.
    public func downloadTask(
        on endpoint: EndpointType,
        to destination: URL,
        options: DownloadOptions = DownloadOptions()
    ) -> TransferTask<DownloadedFile, EndpointType.ClientErrorType> {
        TransferTask { handle, report, completion in
            startDownload(endpoint, to: destination, options: options, progress: report, handle: handle, completion)
        }
    }
}
