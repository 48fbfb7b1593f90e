#if canImport(CCourierCurl)
import CCourierCurl
import CLibcurl
import Foundation
import Synchronization

/// One libcurl multi handle and the thread that drives it: a ``CurlTransport`` spreads its exchanges over a few of
/// these (``CurlEngines``); the exchanges of one engine run on its thread and share its multi handle's connections
/// (kept alive, and multiplexed over HTTP/2 where a server offers it).
///
/// libcurl's handles may be touched by one thread at a time, so other threads never call libcurl directly: they
/// post a command (start, stop, go on) and wake the thread with `curl_multi_wakeup`, the one call libcurl allows
/// from any thread. The thread sleeps in `curl_multi_poll` until a socket, a timer of libcurl's or a command needs
/// it.
final class CurlEngine: @unchecked Sendable {
    enum Command {
        case start(CurlSending)
        case stop(CurlSending, because: any Error)
        /// The receiver asked for more, or a produced body's next part is ready: libcurl goes on where it waited.
        case goOn(CurlSending)
    }

    /// Touched by the engine's thread alone.
    private let multi: UnsafeMutableRawPointer
    private var running: [UnsafeMutableRawPointer: CurlSending] = [:]
    /// Touched by the engine's thread alone: when the idle limits are checked next, on ``CurlClock``.
    private var nextIdleCheck: UInt64 = 0
    private static let idleCheckInterval: UInt64 = 250_000_000

    private let lock = NSLock()
    /// Guarded by `lock`.
    private var commands: [Command] = []
    /// Guarded by `lock`: no more starts; the thread ends once what runs has ended.
    private var closing = false
    /// Guarded by `lock`: the thread runs, started by the first start posted (an engine nothing has used has none).
    private var threadStarted = false
    /// Guarded by `lock`: the thread has ended and freed the multi handle.
    private var ended = false
    /// Handles and header lists for the next exchanges.
    private let spares = CurlSpares()
    /// The transport's cookies, shared with its other engines; freed with the last of them, after every handle that
    /// joined them was cleaned up (an exchange holds its engine until its handle has come back).
    private let cookieJar: CurlCookieJar?
    /// The thread's name, e.g. "Courier curl 0": one per engine, as `top -H` and `/proc` show them.
    private let name: String
    /// The requests given to this engine whose caller has no outcome yet: what ``CurlEngines`` reads to choose the
    /// least busy engine.
    private let exchanges = Atomic<Int>(0)

    private init(multi: UnsafeMutableRawPointer, cookieJar: CurlCookieJar?, name: String) {
        self.multi = multi
        self.cookieJar = cookieJar
        self.name = name
    }

    /// The share handle that holds the transport's cookies, or `nil` when libcurl could not make one.
    var cookieShare: UnsafeMutableRawPointer? { cookieJar?.share }

    /// How many requests the engine carries now (or is about to).
    var load: Int { exchanges.load(ordering: .relaxed) }

    /// Counts one more request in ``load``: taken when the engine is chosen for it, before its exchange is made.
    func reserve() { exchanges.add(1, ordering: .relaxed) }

    /// Counts one request out of ``load``: once its caller is given an outcome (an answer, a failure, a cancel),
    /// which may come before the engine's thread has let the exchange go.
    func release() { exchanges.subtract(1, ordering: .relaxed) }

    /// Makes an engine whose thread starts with its first exchange, or `nil` when libcurl cannot make a multi handle.
    static func make(cookieJar: CurlCookieJar?, name: String) -> CurlEngine? {
        CurlLibrary.initializeOnce()
        guard let multi = curl_multi_init() else { return nil }
        // Connections to one host: enough for a burst of requests without opening a connection per request.
        _ = courier_curl_multi_set_long(multi, CURLMOPT_MAX_HOST_CONNECTIONS, 64)
        _ = courier_curl_multi_set_long(multi, CURLMOPT_MAXCONNECTS, 256)
        return CurlEngine(multi: multi, cookieJar: cookieJar, name: name)
    }

    /// An easy handle for a new exchange on this engine, one that keeps cookies or one that never has.
    func easyHandle(keepingCookies: Bool) -> CurlHandle? {
        spares.handle(keepingCookies: keepingCookies)
    }

    /// Takes back the handle of an exchange that has ended (or never started).
    func recycle(_ handle: CurlHandle, keepingCookies: Bool, cookieEngineOn: Bool) {
        spares.recycle(handle, keepingCookies: keepingCookies, cookieEngineOn: cookieEngineOn)
    }

    /// The header lists for a request's `fields`, shared with the request before it when it had the same.
    func headerLists(for fields: [String: String], hasBody: Bool, usesPost: Bool) -> CurlHeaderLists {
        spares.headerLists(for: fields, hasBody: hasBody, usesPost: usesPost)
    }

    /// Hands `command` to the engine's thread, starting the thread with the first start; `false` once the engine
    /// is closing (a start is then refused) or has ended.
    @discardableResult
    func post(_ command: Command) -> Bool {
        lock.withLock {
            guard !ended else { return false }
            if case .start = command {
                if closing { return false }
                if !threadStarted {
                    threadStarted = true
                    let thread = Thread {
                        // Named from the thread itself: Foundation's `Thread.name` on Linux does not reach the
                        // system's name of a thread not yet started, which would keep its starter's (often a
                        // Dispatch worker's).
                        courier_name_this_thread(self.name)
                        self.run()
                    }
                    thread.start()
                }
            }
            commands.append(command)
            // Under the lock: the thread frees the multi handle under it too, once it has ended.
            curl_multi_wakeup(multi)
            return true
        }
    }

    /// Ends the engine once the exchanges it runs have ended: its transport is gone. An engine whose thread never
    /// started ends here.
    func close() {
        let unused = lock.withLock { () -> Bool in
            closing = true
            if threadStarted, !ended { curl_multi_wakeup(multi) }
            return !threadStarted && !ended
        }
        if unused { end() }
    }

    /// Whether the engine's thread has started: for the tests of how a transport spreads its exchanges.
    var hasThread: Bool { lock.withLock { threadStarted } }

    /// Frees the multi handle and the spare handles: the engine runs nothing, and no start is taken any more.
    private func end() {
        lock.withLock {
            ended = true
            curl_multi_cleanup(multi)
        }
        spares.close()
    }

    private func run() {
        var stillRunning: Int32 = 0
        // Swapped with the posted commands under the lock, emptied here: neither array is copied, so taking the
        // commands allocates nothing.
        var taken: [Command] = []
        while true {
            let ending = lock.withLock { () -> Bool in
                swap(&commands, &taken)
                return closing
            }
            for command in taken { carry(out: command) }
            taken.removeAll(keepingCapacity: true)
            if ending, running.isEmpty {
                // What is still posted can only be stops and read-ons of exchanges that have ended: starts are refused
                // once closing.
                end()
                return
            }
            curl_multi_perform(multi, &stillRunning)
            collectEnded()
            let now = CurlClock.now()
            if now >= nextIdleCheck {
                nextIdleCheck = now + Self.idleCheckInterval
                endIdleSendings(now: now)
            }
            // Awake at least each second while exchanges run, for their idle limits; else asleep until a command
            // comes (a wake-up posted since the commands were taken ends this poll at once).
            curl_multi_poll(multi, nil, 0, running.isEmpty ? Int32.max : 1_000, nil)
        }
    }

    private func carry(out command: Command) {
        switch command {
        case .start(let exchange):
            guard curl_multi_add_handle(multi, exchange.easy) == CURLM_OK else {
                exchange.end(with: .failure(URLError(.unknown)))
                return
            }
            running[exchange.easy] = exchange
            exchange.lastActivity = CurlClock.now()
        case .stop(let exchange, let reason):
            // The same exchange, not only the same address: a handle's memory may serve a later one.
            guard running[exchange.easy] === exchange else { return }
            running[exchange.easy] = nil
            // Over HTTP/1.1 the connection closes; over HTTP/2 libcurl 7.88 resets the stream with the connection's
            // next frames (ending the stream from one of its callbacks sends the reset no sooner).
            curl_multi_remove_handle(multi, exchange.easy)
            exchange.end(with: .failure(reason))
        case .goOn(let exchange):
            guard running[exchange.easy] === exchange else { return }
            // The reader or the producer held it: its idle time starts now.
            exchange.lastActivity = CurlClock.now()
            // Going on hands libcurl's held-back bytes to the receiver at once; one that throws then ends the
            // exchange here, since libcurl only reports it.
            let code = curl_easy_pause(exchange.easy, CURLPAUSE_CONT)
            guard code != CURLE_OK || exchange.stopReason != nil else { return }
            running[exchange.easy] = nil
            curl_multi_remove_handle(multi, exchange.easy)
            exchange.end(with: .failure(exchange.stopReason ?? CurlErrors.error(for: code, of: exchange)))
        }
    }

    /// Ends the exchanges that went without a byte either way for longer than their idle limit, as URLSession ends
    /// a request idle for its `timeoutInterval`: a gap, not a rate (libcurl's low-speed limit averages over seconds,
    /// and would end a stream whose heartbeats are a few bytes apart). Not while the reader or the producer of the
    /// body holds the exchange: that is the caller's pace.
    private func endIdleSendings(now: UInt64) {
        var idle: [CurlSending] = []
        for exchange in running.values
        where exchange.idleLimit > 0 && now - min(exchange.lastActivity, now) >= exchange.idleLimit
            && !exchange.sendWaits && !(exchange.pause?.isWaiting ?? false)
        {
            idle.append(exchange)
        }
        for exchange in idle {
            running[exchange.easy] = nil
            curl_multi_remove_handle(multi, exchange.easy)
            exchange.end(with: .failure(URLError(.timedOut, userInfo: [NSURLErrorFailingURLErrorKey: exchange.url])))
        }
    }

    /// Ends the exchanges libcurl has finished.
    private func collectEnded() {
        var left: Int32 = 0
        while let message = curl_multi_info_read(multi, &left) {
            guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle,
                let exchange = running.removeValue(forKey: easy)
            else { continue }
            let code = message.pointee.data.result
            curl_multi_remove_handle(multi, easy)
            exchange.end(with: exchange.outcome(of: code))
        }
    }
}
#endif
