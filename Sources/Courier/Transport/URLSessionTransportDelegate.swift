import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Collects each task's response and body, and delivers them once the task completes.
final class URLSessionTransportDelegate: NSObject, URLSessionDataDelegate, Sendable {
    typealias Completion = @Sendable (Data?, URLResponse?, Error?) -> Void

    private struct Transfer {
        /// Held here, and so only while the transfer runs: the cancel action names the task by its
        /// identifier, as a task holds its session and must not outlive its request.
        let task: URLSessionTask
        let completion: Completion
        /// Takes the body instead of `body` when set.
        let receiver: (any ResponseBodyReceiver)?
        let uploadProgress: (@Sendable (Int64, Int64?) -> Void)?
        var body: BodyCollector
        var refusedAuthenticationChallenge = false
        /// How many redirects the session has followed for the task.
        var redirects = 0
        /// The response as it reached `didReceive`, so that the end needs not ask the task (a queue hop and three
        /// allocations in FoundationNetworking).
        var response: URLResponse?
    }

    private let transfers = Locked<[Int: Transfer]>([:])

    func register(_ task: URLSessionTask, options: TransportOptions, completion: @escaping Completion) {
        let transfer = Transfer(
            task: task,
            completion: completion,
            receiver: options.responseBodyReceiver,
            uploadProgress: options.uploadProgress,
            body: BodyCollector(limit: options.maximumResponseBodySize)
        )
        transfers.withLock { $0[task.taskIdentifier] = transfer }
    }

    /// Delivers `reason` as `task`'s outcome at once, unless it has already ended, then cancels the task.
    ///
    /// Delivered before cancelling, not from `didCompleteWithError`: under load, libcurl and the session's delegate
    /// queue can take seconds to get to the cancellation, and a cancel must end the request at once. Taking the
    /// transfer out of the table under the lock keeps the delivery to exactly one: the table is this transport's
    /// take-once, one entry a task, where every other place keeps a ``TakeOnce`` or a ``OnceState``.
    func stop(_ task: URLSessionTask, because reason: Error) {
        stop(taskIdentifier: task.taskIdentifier, because: reason)
    }

    /// ``stop(_:because:)`` for the task with `taskIdentifier`, if it is still running.
    func stop(taskIdentifier: Int, because reason: Error) {
        guard let transfer = transfers.withLock({ $0.removeValue(forKey: taskIdentifier) }) else { return }
        transfer.completion(nil, nil, reason)
        transfer.task.cancel()
    }

    /// Changes the transfer of `task` under the lock, if it is still running. Out of the dictionary and back rather
    /// than in place: a change through the dictionary's subscript runs its accessors as coroutines, three
    /// allocations each time.
    private func update<Result>(_ task: URLSessionTask, _ change: (inout Transfer) -> Result) -> Result? {
        transfers.withLock { transfers in
            guard var transfer = transfers.removeValue(forKey: task.taskIdentifier) else { return nil }
            let result = change(&transfer)
            transfers[task.taskIdentifier] = transfer
            return result
        }
    }

    func urlSession(
        _ session: URLSession,
        dataTask: URLSessionDataTask,
        didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        // A HEAD answer announces the length of a body it does not have: nothing to refuse, nothing to make room for.
        let isHead = dataTask.originalRequest?.httpMethod == "HEAD"
        let http = response as? HTTPURLResponse
        if let http,
            let problem = MalformedResponse.framingProblem(
                contentLength: http.value(forHTTPHeaderField: "Content-Length"),
                transferEncoding: http.value(forHTTPHeaderField: "Transfer-Encoding"),
                statusCode: http.statusCode,
                isHead: isHead
            )
        {
            completionHandler(.cancel)
            stop(dataTask, because: MalformedResponse.error(problem, url: dataTask.originalRequest?.url))
            return
        }
        let receiver = update(dataTask) { transfer in
            transfer.response = response
            return transfer.receiver
        }
        if let receiver = receiver ?? nil {
            do {
                try receiver.receiveHead(
                    statusCode: http?.statusCode ?? 0,
                    headerFields: HeaderFields.dictionary(of: response)
                )
                completionHandler(.allow)
            } catch {
                completionHandler(.cancel)
                stop(dataTask, because: error)
            }
            return
        }
        let announced = HeaderFields.announcedLength(
            contentLength: http?.value(forHTTPHeaderField: "Content-Length"),
            contentEncoding: http?.value(forHTTPHeaderField: "Content-Encoding")
        )
        let refused = update(dataTask) { transfer -> Error? in
            do {
                try transfer.body.expect(announced: announced, isHead: isHead)
                return nil
            } catch {
                return error
            }
        }
        if let refused = refused ?? nil {
            completionHandler(.cancel)
            stop(dataTask, because: refused)
        } else {
            completionHandler(.allow)
        }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        if let receiver = transfers.withLock({ $0[dataTask.taskIdentifier]?.receiver }) {
            // On the delegate queue, one part at a time; the session cannot be paused, so `readMore` is not awaited.
            do {
                try receiver.receive(data, readMore: {})
            } catch {
                stop(dataTask, because: error)
            }
            return
        }
        let tooLarge = update(dataTask) { transfer -> Error? in
            // The body is moved out of the dictionary with its transfer, so it is still the only reference: no copy.
            do {
                try transfer.body.append(data)
                return nil
            } catch {
                return error
            }
        }
        if let tooLarge = tooLarge ?? nil { stop(dataTask, because: tooLarge) }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        // A task stopped by Courier has had its outcome delivered already and is not here anymore.
        guard let transfer = transfers.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else { return }
        let response = transfer.response ?? task.response
        // A 401 whose challenge this delegate refused ends as "cancelled"; the answer itself has arrived and is
        // what the caller must get.
        let error = transfer.refusedAuthenticationChallenge && response != nil ? nil : error
        let body = error == nil ? transfer.body.body : nil
        transfer.completion(body, error == nil ? response : nil, error)
    }

    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        didSendBodyData bytesSent: Int64,
        totalBytesSent: Int64,
        totalBytesExpectedToSend: Int64
    ) {
        guard let report = transfers.withLock({ $0[task.taskIdentifier]?.uploadProgress }) else { return }
        report(totalBytesSent, totalBytesExpectedToSend > 0 ? totalBytesExpectedToSend : nil)
    }

    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest,
        completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        let followed = update(task) { transfer in
            transfer.redirects += 1
            return transfer.redirects
        }
        if let followed, followed > RedirectPolicy.limit {
            completionHandler(nil)
            let failingURL = request.url as Any
            stop(task, because: URLError(.httpTooManyRedirects, userInfo: [NSURLErrorFailingURLErrorKey: failingURL]))
            return
        }
        var redirected = request
        // URLSession sends `Proxy-Authorization` to the server like any field.
        let dropped = RedirectPolicy.fieldsToDrop(
            from: task.originalRequest?.url,
            to: request.url,
            proxyCredentials: .toServer
        )
        for name in dropped {
            redirected.setValue(nil, forHTTPHeaderField: name)
        }
        completionHandler(redirected)
    }

    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        guard challenge.failureResponse != nil else {
            completionHandler(.performDefaultHandling, nil)
            return
        }
        #if canImport(FoundationNetworking)
        // FoundationNetworking answers a 401 with a `WWW-Authenticate` challenge by waiting for a stored
        // credential, and without one the task never completes. The response and body have already reached
        // this delegate, so refuse the challenge and deliver them as the answer.
        _ = update(task) { $0.refusedAuthenticationChallenge = true }
        completionHandler(.cancelAuthenticationChallenge, nil)
        #else
        // Apple's URLSession delivers the 401 as the response when no credential is offered.
        completionHandler(.performDefaultHandling, nil)
        #endif
    }
}
