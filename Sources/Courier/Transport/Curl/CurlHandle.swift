#if canImport(CCourierCurl)
import CLibcurl

/// An easy handle and the buffer libcurl writes its words for a failure into: made together, kept together among an
/// engine's spare handles, freed together, so that an exchange allocates neither.
struct CurlHandle: @unchecked Sendable {
    let easy: UnsafeMutableRawPointer
    /// `CURLOPT_ERRORBUFFER`'s room, cleared for each exchange. Read only on the engine's thread, before the handle
    /// goes back to the spares.
    let errorWords: UnsafeMutablePointer<CChar>
    /// Whether libcurl's cookie engine is known to be on in the handle: a head arrived on a transfer of it that kept
    /// cookies (libcurl switches the engine on as such a transfer begins, and a reset leaves it on). A transfer that
    /// began but got no head counts as not having it, which only costs setting the option once more.
    var cookieEngineOn = false

    private static let errorRoom = Int(CURL_ERROR_SIZE) + 1

    /// A new handle, or `nil` when libcurl cannot make one.
    static func make() -> CurlHandle? {
        guard let easy = curl_easy_init() else { return nil }
        let words = UnsafeMutablePointer<CChar>.allocate(capacity: errorRoom)
        words.initialize(repeating: 0, count: errorRoom)
        return CurlHandle(easy: easy, errorWords: words)
    }

    /// Clears the words of the exchange before: libcurl writes them only when a transfer fails.
    func clearErrorWords() {
        errorWords[0] = 0
    }

    func cleanup() {
        curl_easy_cleanup(easy)
        errorWords.deallocate()
    }
}
#endif
