/// The transport of a provider made without one: on Linux a `CurlTransport` (libcurl directly), elsewhere a
/// ``URLSessionTransport`` with a fresh `.ephemeral` configuration. Each provider gets its own, as each got its own
/// `URLSession`: its own connections and cookies.
func defaultTransport() -> any Transport {
    #if canImport(CCourierCurl)
    let curl = CurlTransport()
    // libcurl could not make its multi handle (out of memory): URLSession can still carry the requests.
    return curl.isRunning ? curl : URLSessionTransport()
    #else
    URLSessionTransport()
    #endif
}
