#if canImport(CCourierCurl)
import CCourierCurl

/// A transport's cookies: a libcurl share handle that every engine's easy handles join, behind its own mutex (the
/// engines' threads use it at once). Freed with the last engine that holds it, which is after the last handle that
/// joined it: an engine cleans up its handles before it lets go.
final class CurlCookieJar: @unchecked Sendable {
    /// The share handle that easy handles join with `CURLOPT_SHARE`.
    let share: UnsafeMutableRawPointer
    private let jar: OpaquePointer

    /// A jar, or `nil` when libcurl could not make a share handle.
    init?() {
        guard let jar = courier_curl_cookie_jar_make() else { return nil }
        guard let share = courier_curl_cookie_jar_share(jar) else {
            courier_curl_cookie_jar_free(jar)
            return nil
        }
        self.jar = jar
        self.share = share
    }

    deinit {
        courier_curl_cookie_jar_free(jar)
    }
}
#endif
