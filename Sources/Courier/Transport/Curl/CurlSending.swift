#if canImport(CCourierCurl)
import CCourierCurl
import CLibcurl
import Foundation
import Synchronization

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One request on a ``CurlEngine``: its easy handle and what libcurl's callbacks gather of the answer.
///
/// Unchecked: everything but ``pause``, `completion` and `loadHeld` is touched only by the engine's thread
/// (libcurl calls the callbacks from `curl_multi_perform` there), or before the exchange is handed to it.
final class CurlSending: @unchecked Sendable {
    let handle: CurlHandle
    var easy: UnsafeMutableRawPointer { handle.easy }
    let engine: CurlEngine
    let url: URL
    let isHead: Bool
    let receiver: (any ResponseBodyReceiver)?
    /// The caller's completion, run once (``deliver(_:)``); kept here rather than in a ``DeliverOnce``, which would
    /// be one more allocation per request.
    private let completion: Mutex<TakeOnce<@Sendable (Result<TransportResponse, any Error>) -> Void>>
    /// Whether the exchange still counts in its engine's load (``releaseLoad()``).
    private let loadHeld = Atomic<Bool>(true)
    /// Whether the answer carries the sending's timings.
    let measuresTimings: Bool
    /// Whether the exchange sends the transport's cookies and keeps those its answer sets.
    let keepsCookies: Bool
    private let uploadProgress: (@Sendable (Int64, Int64?) -> Void)?
    let uploadSize: Int64?
    /// How long the exchange may go without a byte either way, from the request's `timeoutInterval`, in
    /// nanoseconds; 0 for no limit. Checked by the engine (`CurlEngine.endIdleSendings`).
    let idleLimit: UInt64
    /// When a byte last went either way, or the exchange started, on ``CurlClock``.
    var lastActivity: UInt64 = 0
    /// Whether the upload waits for a produced body's next part: the producer's pace, not the server's silence.
    var sendWaits = false

    /// Kept alive while the handle may use them: libcurl does not copy a header list.
    var headerLists: CurlHeaderLists?
    var requestBody: CurlRequestBody?

    // What the callbacks gather.
    var statusCode = 0
    var httpVersion = "HTTP/1.1"
    var fields = CurlHeadFields()
    /// Whether libcurl follows this request's redirects; else the exchange ends with the first as a ``CurlRedirect``
    /// for its ``CurlRedirectChain`` to follow.
    var libcurlFollowsRedirects = true
    /// The redirect the exchange ends with, for its chain to follow; its body is passed over.
    var redirect: CurlRedirect?
    private var redirectBodyBytes = 0
    private static let mostRedirectBodyBytes = 64 * 1024
    /// Whether the final head (not an informational one, nor a redirect libcurl follows) has been taken.
    var headTaken = false
    var headerBytes = 0
    var body: BodyCollector
    /// What a callback stopped the exchange with; wins over libcurl's code for it.
    var stopReason: (any Error)?

    private var uploaded: Int64 = 0

    /// Whether the receiver has asked for the next part: shared with whichever thread it asks from. Only an exchange
    /// with a receiver has one.
    let pause: CurlPause?

    init(
        handle: CurlHandle,
        engine: CurlEngine,
        url: URL,
        isHead: Bool,
        keepsCookies: Bool,
        options: TransportOptions,
        uploadSize: Int64?,
        idleLimit: TimeInterval,
        completion: @escaping @Sendable (Result<TransportResponse, any Error>) -> Void
    ) {
        self.handle = handle
        self.engine = engine
        self.url = url
        self.isHead = isHead
        self.keepsCookies = keepsCookies
        receiver = options.responseBodyReceiver
        uploadProgress = options.uploadProgress
        measuresTimings = options.measuresTimings
        self.uploadSize = uploadSize
        self.idleLimit = idleLimit > 0 && idleLimit < 1e9 ? UInt64(idleLimit * 1e9) : 0
        self.completion = Mutex(TakeOnce(completion))
        pause = options.responseBodyReceiver == nil ? nil : CurlPause()
        body = BodyCollector(limit: options.maximumResponseBodySize)
    }

    /// Counts the exchange out of its engine's load, once: when its outcome is delivered, or its cancel is.
    func releaseLoad() {
        if loadHeld.exchange(false, ordering: .relaxed) { engine.release() }
    }

    /// The caller's cancel, from any thread: the completion gets `URLError(.cancelled)` at once, unless it has run,
    /// and the engine stops the exchange.
    func cancel() {
        // Out of the engine's load before the caller hears of the cancel: a request it sends next must find the
        // engine as free as it now is.
        releaseLoad()
        guard deliver(.failure(URLError(.cancelled))) else { return }
        engine.post(.stop(self, because: URLError(.cancelled)))
    }

    /// Hands `result` to the caller unless a cancel did first, and gives the handle back: called once,
    /// after the handle has left the multi handle (on the engine's thread) or before it joined it.
    func end(with result: Result<TransportResponse, any Error>) {
        releaseLoad()
        // A head's first line arrived only after libcurl began the transfer, which switches the cookie engine on.
        engine.recycle(handle, keepingCookies: keepsCookies, cookieEngineOn: handle.cookieEngineOn || headerBytes > 0)
        headerLists = nil
        requestBody?.close()
        requestBody = nil
        // What was collected is the answer's now: a cancel action kept after the end holds none of it.
        body = BodyCollector(limit: 0)
        fields = CurlHeadFields()
        deliver(result)
    }

    /// Runs the completion with `result` unless it has run already.
    /// - Returns: Whether this call ran it.
    @discardableResult
    func deliver(_ result: Result<TransportResponse, any Error>) -> Bool {
        guard let completion = completion.withLock({ $0.take() }) else { return false }
        completion(result)
        return true
    }

    // MARK: Callbacks, on the engine's thread

    /// A part of the body (after any decompression): to the receiver, which may ask libcurl to wait, or to the
    /// collector, under its limit.
    func takeBodyPart(_ part: UnsafeRawBufferPointer) -> Int {
        if stopReason != nil { return 0 }
        lastActivity = CurlClock.now()
        if redirect != nil {
            // A redirect's body is passed over; read to its end, it leaves the connection for the next hop, but
            // not past a size a redirect has no need of.
            redirectBodyBytes += part.count
            return redirectBodyBytes <= Self.mostRedirectBodyBytes ? part.count : 0
        }
        guard let receiver, let pause else {
            do {
                try body.append(contentsOf: part)
                return part.count
            } catch {
                stopReason = error
                return 0
            }
        }
        // The receiver has not asked for more since the last part (libcurl hands on what it held back, or what one
        // read inflated to, in several writes): libcurl keeps these bytes until it does.
        if pause.isWaiting { return Int(CURL_WRITEFUNC_PAUSE) }
        pause.willHandOver()
        do {
            try receiver.receive(Data(part)) { [weak self] in
                guard let self, pause.readMore() else { return }
                engine.post(.goOn(self))
            }
        } catch {
            stopReason = error
            return 0
        }
        // Not asked for more yet: libcurl holds the connection until the receiver asks.
        // `curl_easy_pause` sets both directions at once: this lets a waiting upload go on, whose read callback
        // then pauses it again when the producer's next part is not ready (and `.goOn`, which resumes both, leaves
        // each callback to pause its direction anew). One spare call, instead of a mask kept for both.
        if pause.pausesNow() { curl_easy_pause(easy, CURLPAUSE_RECV) }
        return part.count
    }

    /// The request body's next bytes, into `buffer`: the count written, 0 at the end, or libcurl's word to wait
    /// while a produced body's next part is made.
    func giveBodyBytes(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        guard let requestBody else { return 0 }
        do {
            let read = try requestBody.read(into: buffer) { [weak self] in
                guard let self else { return }
                engine.post(.goOn(self))
            }
            sendWaits = false
            lastActivity = CurlClock.now()
            switch read {
            case .bytes(let count): return count
            case .end: return 0
            case .notYet:
                sendWaits = true
                return Int(CURL_READFUNC_PAUSE)
            case .failed(let error):
                stopReason = error
                return Int(CURL_READFUNC_ABORT)
            }
        } catch {
            stopReason = error
            return Int(CURL_READFUNC_ABORT)
        }
    }

    var reportsUpload: Bool { uploadProgress != nil }

    /// The request body from `offset` again: `false` when it cannot be (libcurl then fails the sending, with the
    /// reason kept here when there is one).
    func restartBody(at offset: Int64) -> Bool {
        do {
            try requestBody?.seek(to: offset)
            return requestBody != nil
        } catch is InvalidRequestError {
            // 307 and 308 are refused before this (`headEnded`): this is libcurl sending the body again on a new
            // connection, the kept-alive one having closed under it. Lost like any connection, for a retry to send
            // the body anew; never an invalid request.
            stopReason = URLError(.networkConnectionLost, userInfo: [NSURLErrorFailingURLErrorKey: url])
            return false
        } catch {
            return false
        }
    }

    func noteUploaded(_ count: Int64) {
        guard count != uploaded, let uploadProgress else { return }
        uploaded = count
        uploadProgress(count, uploadSize)
    }
}
#endif
