import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Collects each task's response and body, and delivers them once the task completes.
final class URLSessionTransportDelegate: NSObject, URLSessionDataDelegate, Sendable {
    typealias Completion = @Sendable (Data?, URLResponse?, Error?) -> Void

    private struct Transfer {
        let completion: Completion
        var body = Data()
        var refusedAuthenticationChallenge = false
    }

    private let transfers = Locked<[Int: Transfer]>([:])

    /// The headers that identify the user to the original origin and must not follow a redirect elsewhere.
    private static let credentialHeaders = ["Authorization", "Proxy-Authorization", "Cookie"]

    func register(_ task: URLSessionTask, completion: @escaping Completion) {
        transfers.withLock { $0[task.taskIdentifier] = Transfer(completion: completion) }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        transfers.withLock { $0[dataTask.taskIdentifier]?.body.append(data) }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        guard let transfer = transfers.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else { return }
        let response = task.response
        // A 401 whose challenge this delegate refused ends as "cancelled"; the answer itself has arrived and is
        // what the caller must get.
        let error = transfer.refusedAuthenticationChallenge && response != nil ? nil : error
        let body = error == nil ? transfer.body : nil
        transfer.completion(body, error == nil ? response : nil, error)
    }

    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest,
        completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        var redirected = request
        if Self.origin(of: task.originalRequest?.url) != Self.origin(of: request.url) {
            for header in Self.credentialHeaders {
                redirected.setValue(nil, forHTTPHeaderField: header)
            }
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
        transfers.withLock { $0[task.taskIdentifier]?.refusedAuthenticationChallenge = true }
        completionHandler(.cancelAuthenticationChallenge, nil)
        #else
        // Apple's URLSession delivers the 401 as the response when no credential is offered.
        completionHandler(.performDefaultHandling, nil)
        #endif
    }

    private static func origin(of url: URL?) -> String? {
        guard let url, let components = URLComponents(url: url, resolvingAgainstBaseURL: true) else { return nil }
        let scheme = components.scheme?.lowercased() ?? ""
        let port = components.port ?? (scheme == "https" ? 443 : 80)
        return "\(scheme)://\(components.host?.lowercased() ?? ""):\(port)"
    }
}
