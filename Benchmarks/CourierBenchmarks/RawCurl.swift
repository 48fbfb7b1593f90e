#if AsyncHTTPClient && OpenAPI
import CCourierCurl
import CLibcurl
import Foundation

/// The baseline of the libcurl table: libcurl's multi interface driven the way `CurlTransport` drives it (one multi
/// handle on a thread of its own, easy handles kept and reset, a continuation per request), with nothing else: no
/// request building, header parsing, pipeline or limits.
final class RawCurl: @unchecked Sendable {
    private final class Transfer {
        let easy: UnsafeMutableRawPointer
        /// Whether the body is kept, or only its bytes counted.
        let keepsBody: Bool
        var body = Data()
        var count = 0
        /// A file the body is written to, part by part as libcurl hands it over, or -1.
        let file: Int32
        var continuation: CheckedContinuation<(body: Data, count: Int)?, Never>?

        init(easy: UnsafeMutableRawPointer, keepsBody: Bool, file: Int32 = -1) {
            self.easy = easy
            self.keepsBody = keepsBody
            self.file = file
        }
    }

    private let multi: UnsafeMutableRawPointer
    private let lock = NSLock()
    /// Guarded by `lock`.
    private var queued: [Transfer] = []
    private var spare: [UnsafeMutableRawPointer] = []
    /// The engine thread's own.
    private var running: [UnsafeMutableRawPointer: Transfer] = [:]

    init?() {
        curl_global_init(Int(CURL_GLOBAL_ALL))
        guard let multi = curl_multi_init() else { return nil }
        self.multi = multi
        let thread = Thread { [self] in run() }
        thread.start()
    }

    /// One GET of `url`: the body, or `nil` when it failed.
    func get(_ url: String) async -> Data? {
        await transfer(url, keepingBody: true)?.body
    }

    /// One GET of `url` whose body is counted and dropped: its length, or `nil` when it failed.
    func count(_ url: String) async -> Int? {
        await transfer(url, keepingBody: false)?.count
    }

    /// One GET of `url` whose body is written to `path` with a `write` call per part libcurl hands over (what a
    /// plain libcurl download does): its length, or `nil` when it failed.
    func download(_ url: String, to path: String) async -> Int? {
        let file = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        guard file >= 0 else { return nil }
        defer { close(file) }
        return await transfer(url, keepingBody: false, file: file)?.count
    }

    private func transfer(_ url: String, keepingBody: Bool, file: Int32 = -1) async -> (body: Data, count: Int)? {
        await withCheckedContinuation { (continuation: CheckedContinuation<(body: Data, count: Int)?, Never>) in
            let easy = lock.withLock { spare.popLast() } ?? curl_easy_init()
            guard let easy else { return continuation.resume(returning: nil) }
            let transfer = Transfer(easy: easy, keepsBody: keepingBody, file: file)
            transfer.continuation = continuation
            _ = url.withCString { courier_curl_set_pointer(easy, CURLOPT_URL, $0) }
            _ = courier_curl_set_long(easy, CURLOPT_NOSIGNAL, 1)
            _ = courier_curl_set_data_callback(easy, CURLOPT_WRITEFUNCTION, Self.write)
            _ = courier_curl_set_pointer(easy, CURLOPT_WRITEDATA, Unmanaged.passUnretained(transfer).toOpaque())
            lock.withLock {
                queued.append(transfer)
                curl_multi_wakeup(multi)
            }
        }
    }

    private static let write: courier_curl_data_callback = { buffer, size, count, context in
        guard let buffer, let context else { return 0 }
        let transfer = Unmanaged<Transfer>.fromOpaque(context).takeUnretainedValue()
        if transfer.keepsBody {
            transfer.body.append(UnsafeRawBufferPointer(start: buffer, count: size * count).bindMemory(to: UInt8.self))
        } else if transfer.file >= 0 {
            var written = 0
            while written < size * count {
                let result = Foundation.write(transfer.file, buffer + written, size * count - written)
                guard result > 0 else { return 0 }
                written += result
            }
            transfer.count += written
        } else {
            transfer.count += size * count
        }
        return size * count
    }

    private func run() {
        var stillRunning: Int32 = 0
        while true {
            for transfer in lock.withLock({ () -> [Transfer] in
                defer { queued = [] }
                return queued
            }) {
                running[transfer.easy] = transfer
                curl_multi_add_handle(multi, transfer.easy)
            }
            curl_multi_perform(multi, &stillRunning)
            var left: Int32 = 0
            while let message = curl_multi_info_read(multi, &left) {
                guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle,
                    let transfer = running.removeValue(forKey: easy)
                else { continue }
                let succeeded = message.pointee.data.result == CURLE_OK
                curl_multi_remove_handle(multi, easy)
                curl_easy_reset(easy)
                lock.withLock { spare.append(easy) }
                transfer.continuation?.resume(returning: succeeded ? (transfer.body, transfer.count) : nil)
            }
            curl_multi_poll(multi, nil, 0, 1_000, nil)
        }
    }
}
#endif
