import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Sends requests through a `URLSession` that belongs to one provider.
///
/// The session is created from the configuration the provider was given (by default a fresh `.ephemeral`
/// one, so two providers never share cookies, credentials or a cache) and is invalidated with the provider.
/// Its delegate, ``URLSessionTransportDelegate``, is where Courier corrects what URLSession gets wrong for an
/// API client: credentials carried across hosts on redirects, and 401 answers that never complete on Linux.
final class URLSessionTransport: Sendable {
    private let session: URLSession
    private let delegate = URLSessionTransportDelegate()

    init(configuration: URLSessionConfiguration) {
        let delegateQueue = OperationQueue()
        delegateQueue.maxConcurrentOperationCount = 1
        delegateQueue.name = "Courier.URLSessionTransport"
        session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: delegateQueue)
    }

    deinit {
        session.finishTasksAndInvalidate()
    }

    /// Starts `request`; `completion` is called once with what came back: on the session's serial delegate queue,
    /// or on a timer's queue when the timeout ends the request. It must not block: everything else this session
    /// delivers waits behind it.
    /// - Parameter bodyFile: A file to send as the body, read from disk in chunks, unless a plugin gave the request
    ///   a body of its own. An upload task sends it with its `Content-Length`; a body stream would go chunked, and on
    ///   Linux a `Content-Length` set by hand next to a stream is sent together with `Transfer-Encoding: chunked`,
    ///   which servers must reject.
    /// - Returns: The action that cancels the request: `completion` gets `URLError(.cancelled)` at once.
    /// - Parameters:
    ///   - timeout: The most the whole exchange may take, enforced here: FoundationNetworking truncates
    ///     `timeoutInterval` to whole seconds and only measures idle time, so a server that drips its body would
    ///     otherwise hold the request forever. Ends the task with `URLError(.timedOut)`.
    ///   - maximumBodySize: The most response body bytes kept; a larger body ends the task with
    ///     ``ResponseTooLargeError`` as soon as it is announced or reached.
    func send(
        _ request: URLRequest,
        bodyFile: URL? = nil,
        timeout: Duration? = nil,
        maximumBodySize: Int = .max,
        completion: @escaping @Sendable (Data?, URLResponse?, Error?) -> Void
    ) -> @Sendable () -> Void {
        let task: URLSessionTask
        if let bodyFile, request.httpBody == nil, request.httpBodyStream == nil {
            task = session.uploadTask(with: request, fromFile: bodyFile)
        } else {
            task = session.dataTask(with: request)
        }
        delegate.register(task, maximumBodySize: maximumBodySize, completion: completion)
        task.resume()
        if let timeout {
            let delegate = delegate
            let deadline = DispatchTime.now() + DispatchQueueScheduler.dispatchInterval(timeout)
            DispatchQueue.global(qos: .userInitiated).asyncAfter(deadline: deadline) {
                delegate.stop(task, because: URLError(.timedOut))
            }
        }
        // Delivered at once, like the timeout: the session's own cancellation can take seconds to come back.
        let delegate = delegate
        return { delegate.stop(task, because: URLError(.cancelled)) }
    }
}
