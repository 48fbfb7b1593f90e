import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension ApiProvider {
    /// Downloads the body of `endpoint`'s answer into the file at `destination`, without holding it in memory.
    ///
    /// The body is written beside the destination under a hidden name and moved into place only when it has arrived
    /// whole, replacing any file there; until then the destination is left as it was. A download that fails, is
    /// cancelled or times out leaves nothing behind, unless ``DownloadOptions/resumable`` keeps what arrived for the
    /// next download to continue. An answer that is not 2xx is not written: its body decodes as the endpoint's
    /// client error, as for any request. The plugins see the request as for any other (authorization, token
    /// refresh, retry, logging), and their `didPerformRequest` gets no body for a 2xx answer.
    ///
    /// Cancelling the awaiting task cancels the download.
    /// - Parameters:
    ///   - endpoint: The endpoint whose answer is the file.
    ///   - destination: A file URL in an existing directory.
    ///   - options: Resuming and the size limit.
    ///   - progress: Called with the bytes received so far (see ``TransferProgress``); the last report, on success,
    ///     is the file's size.
    public func download(
        on endpoint: EndpointType,
        to destination: URL,
        options: DownloadOptions = DownloadOptions(),
        progress: (@Sendable (TransferProgress) -> Void)? = nil
    ) async -> Result<DownloadedFile, ApiError<EndpointType.ClientErrorType>> {
        let handle = CancellableRequest()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                startDownload(endpoint, to: destination, options: options, progress: progress, handle: handle) {
                    continuation.resume(returning: $0)
                }
            }
        } onCancel: {
            handle.cancel()
        }
    }

    /// Downloads the body of `endpoint`'s answer into the file at `destination` and calls `completion` with the
    /// outcome, on a background queue; see ``download(on:to:options:progress:)``.
    /// - Returns: A handle that cancels the download.
    @discardableResult
    public func download(
        on endpoint: EndpointType,
        to destination: URL,
        options: DownloadOptions = DownloadOptions(),
        progress: (@Sendable (TransferProgress) -> Void)? = nil,
        completion: @escaping @Sendable (Result<DownloadedFile, ApiError<EndpointType.ClientErrorType>>) -> Void
    ) -> CancellableRequest {
        let handle = CancellableRequest()
        // Delivered on a global queue, as ``performRequest(on:decodeBodyTo:completion:)`` does: the completion may
        // block without holding up the transport.
        startDownload(
            endpoint,
            to: destination,
            options: options,
            progress: progress,
            handle: handle,
            completion
        )
        return handle
    }

    func startDownload(
        _ endpoint: EndpointType,
        to destination: URL,
        options: DownloadOptions,
        progress: (@Sendable (TransferProgress) -> Void)?,
        handle: CancellableRequest,
        _ completion: @escaping @Sendable (Result<DownloadedFile, ApiError<EndpointType.ClientErrorType>>) -> Void
    ) {
        let download = FileDownload(destination: destination.standardizedFileURL, options: options)
        let plan = TransferPlan(
            destination: .file(download),
            progress: progress,
            idleTimeout: endpoint.idleTimeout
        )
        // Finished off the transport's thread, which serves other requests meanwhile: the file is moved into place,
        // an error body decoded, the last progress reported, `didPerformRequest` run.
        start(endpoint, transfer: plan, handle: handle, transportDeliveryQueue: .global()) { exchange in
            completion(self.finishDownload(exchange, download: download, plan: plan, endpoint: endpoint))
        }
    }

    private func finishDownload(
        _ exchange: Exchange,
        download: FileDownload,
        plan: TransferPlan,
        endpoint: EndpointType
    ) -> Result<DownloadedFile, ApiError<EndpointType.ClientErrorType>> {
        var exchange = exchange
        let writer = exchange.receiver?.writer
        let statusCode = exchange.head?.statusCode ?? 0
        if exchange.error == nil, (200..<300).contains(statusCode), writer != nil {
            do {
                try download.complete()
            } catch {
                exchange.error = error
                download.abandon()
            }
        } else if statusCode == 416 {
            // The server has no such range: what was kept does not belong to the file it has now.
            download.forget()
        } else {
            download.abandon()
        }
        let result = finish(exchange, endpoint: endpoint) as TypedResult<EmptyBodyResponse>
        plan.end(succeeded: (try? result.get()) != nil)
        return result.flatMap { _ in
            guard let response = exchange.response as? HTTPURLResponse, let writer else {
                return .failure(.noResponseReceived(error: nil))
            }
            let size = fileSize(at: download.destination)
            return .success(
                DownloadedFile(
                    fileUrl: download.destination,
                    response: response,
                    byteCount: size ?? 0,
                    resumedFrom: writer.offset
                )
            )
        }
    }
}
