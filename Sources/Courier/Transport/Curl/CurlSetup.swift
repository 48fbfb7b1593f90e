#if canImport(CCourierCurl)
import CCourierCurl
import CLibcurl
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// An easy handle set up for one request as built: its URL, method, header fields and body, the callbacks that
/// gather the answer, and its TLS options.
enum CurlSetup {
    /// The request's body: its own bytes, its stream read whole, the body file read as it is sent, or a body
    /// produced while it is sent.
    static func body(of request: URLRequest, options: TransportOptions) throws -> CurlRequestBody? {
        let file = options.bodyFile
        if let produced = options.requestBody { return CurlRequestBody(CurlProducedBody(produced)) }
        if let data = request.httpBody { return CurlRequestBody(data) }
        if let stream = request.httpBodyStream { return CurlRequestBody(try stream.readAll()) }
        if let file { return try CurlRequestBody(file: file) }
        return nil
    }

    /// - Parameter fields: The request's header fields, read once by the caller.
    static func configure(
        _ exchange: CurlSending,
        fields: [String: String],
        method: String,
        tls: TlsOptions?
    ) throws {
        let easy = exchange.easy
        let context = Unmanaged.passUnretained(exchange).toOpaque()
        var failed = CURLE_OK
        func set(_ option: CURLoption, _ value: Int) {
            let code = courier_curl_set_long(easy, option, value)
            if code != CURLE_OK { failed = code }
        }
        func set(_ option: CURLoption, _ value: String?) {
            let code =
                value.map { $0.withCString { courier_curl_set_pointer(easy, option, $0) } }
                ?? courier_curl_set_pointer(easy, option, nil)
            if code != CURLE_OK { failed = code }
        }
        set(CURLOPT_NOSIGNAL, 1)
        set(CURLOPT_URL, exchange.url.absoluteString)
        set(CURLOPT_PROTOCOLS_STR, "http,https")
        set(CURLOPT_REDIR_PROTOCOLS_STR, "http,https")
        // libcurl follows the redirects of `GET` and `HEAD`; Courier those of other methods (`CurlRedirectChain`).
        if exchange.libcurlFollowsRedirects {
            set(CURLOPT_FOLLOWLOCATION, 1)
            set(CURLOPT_MAXREDIRS, RedirectPolicy.limit)
        }
        // Every encoding this libcurl can inflate, asked for and decoded, as URLSession does on Linux.
        set(CURLOPT_ACCEPT_ENCODING, "")
        set(CURLOPT_SUPPRESS_CONNECT_HEADERS, 1)
        if exchange.receiver != nil {
            // A body handed on part by part comes in parts of up to this size rather than libcurl's 16 KiB: each
            // part costs a copy, a hand-over and, when the reader has not asked for the next yet, a pause and a
            // wake-up.
            set(CURLOPT_BUFFERSIZE, 128 * 1024)
        }
        if exchange.keepsCookies, let share = exchange.engine.cookieShare {
            // The transport's one jar, switched on without a file to read: cookies live as long as the transport.
            _ = courier_curl_set_pointer(easy, CURLOPT_SHARE, share)
            // A handle whose cookie engine is on keeps it on through a reset: the option again would make a new
            // list of files to read, with the one empty name, two allocations each request.
            if !exchange.handle.cookieEngineOn { set(CURLOPT_COOKIEFILE, "") }
        }
        _ = courier_curl_set_pointer(easy, CURLOPT_ERRORBUFFER, exchange.handle.errorWords)
        _ = courier_curl_set_data_callback(easy, CURLOPT_HEADERFUNCTION, headerLine)
        _ = courier_curl_set_pointer(easy, CURLOPT_HEADERDATA, context)
        _ = courier_curl_set_data_callback(easy, CURLOPT_WRITEFUNCTION, bodyPart)
        _ = courier_curl_set_pointer(easy, CURLOPT_WRITEDATA, context)

        let body = exchange.requestBody
        switch method {
        case "GET" where body == nil: set(CURLOPT_HTTPGET, 1)
        case "HEAD" where body == nil: set(CURLOPT_NOBODY, 1)
        default:
            if method != "POST" { set(CURLOPT_CUSTOMREQUEST, method) }
            if let body {
                set(CURLOPT_POST, 1)
                _ = courier_curl_set_offset(easy, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.length ?? -1))
                _ = courier_curl_set_data_callback(easy, CURLOPT_READFUNCTION, bodyBytes)
                _ = courier_curl_set_pointer(easy, CURLOPT_READDATA, context)
                // A body sent again (a 307 or 308, a kept-alive connection found closed) starts over.
                _ = courier_curl_set_seek_callback(easy, bodySeek)
                _ = courier_curl_set_pointer(easy, CURLOPT_SEEKDATA, context)
            } else if method == "POST" {
                set(CURLOPT_POST, 1)
                _ = courier_curl_set_offset(easy, CURLOPT_POSTFIELDSIZE_LARGE, 0)
            }
        }
        if exchange.uploadSize != nil, exchange.reportsUpload {
            set(CURLOPT_NOPROGRESS, 0)
            _ = courier_curl_set_progress_callback(easy, progress)
            _ = courier_curl_set_pointer(easy, CURLOPT_XFERINFODATA, context)
        }
        let lists = exchange.engine.headerLists(
            for: fields,
            hasBody: body != nil,
            usesPost: body != nil || method == "POST"
        )
        exchange.headerLists = lists
        _ = courier_curl_set_pointer(easy, CURLOPT_HTTPHEADER, lists.server)
        // Fields for a proxy go to the proxy alone: libcurl would carry them to every host a redirect leads to.
        set(CURLOPT_HEADEROPT, Int(CURLHEADER_SEPARATE))
        _ = courier_curl_set_pointer(easy, CURLOPT_PROXYHEADER, lists.proxy)
        if exchange.isSecure {
            // Many requests starting at once wait for the first connection's ALPN, to share it over HTTP/2.
            set(CURLOPT_PIPEWAIT, 1)
        }
        if let tls { try CurlTls.apply(tls, to: easy) }
        if failed != CURLE_OK {
            throw InvalidRequestError(
                reason: "libcurl refused the request: \(String(cString: curl_easy_strerror(failed)))"
            )
        }
    }

    // MARK: Callbacks

    private static let headerLine: courier_curl_data_callback = { buffer, size, count, context in
        guard let buffer, let context else { return 0 }
        let exchange = Unmanaged<CurlSending>.fromOpaque(context).takeUnretainedValue()
        let length = size * count
        return exchange.takeHeaderLine(UnsafeRawBufferPointer(start: buffer, count: length)) ? length : 0
    }

    private static let bodyPart: courier_curl_data_callback = { buffer, size, count, context in
        guard let buffer, let context else { return 0 }
        let exchange = Unmanaged<CurlSending>.fromOpaque(context).takeUnretainedValue()
        let length = size * count
        return exchange.takeBodyPart(UnsafeRawBufferPointer(start: buffer, count: length))
    }

    private static let bodyBytes: courier_curl_data_callback = { buffer, size, count, context in
        guard let buffer, let context else { return Int(CURL_READFUNC_ABORT) }
        let exchange = Unmanaged<CurlSending>.fromOpaque(context).takeUnretainedValue()
        return exchange.giveBodyBytes(into: UnsafeMutableRawBufferPointer(start: buffer, count: size * count))
    }

    private static let bodySeek: curl_seek_callback = { context, offset, origin in
        guard let context, origin == SEEK_SET else { return CURL_SEEKFUNC_CANTSEEK }
        let exchange = Unmanaged<CurlSending>.fromOpaque(context).takeUnretainedValue()
        return exchange.restartBody(at: Int64(offset)) ? CURL_SEEKFUNC_OK : CURL_SEEKFUNC_CANTSEEK
    }

    private static let progress: courier_curl_progress_callback = { context, _, _, _, uploaded in
        guard let context else { return 0 }
        Unmanaged<CurlSending>.fromOpaque(context).takeUnretainedValue().noteUploaded(Int64(uploaded))
        return 0
    }
}
#endif
