#if canImport(CCourierCurl)
import CCourierCurl
import CLibcurl
import Foundation

/// The monotonic clock of the engine's idle limits, in nanoseconds: cheap enough to read for every part.
enum CurlClock {
    static func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }
}

/// libcurl's global set-up, which must run once before any handle is made and is not thread-safe itself.
enum CurlLibrary {
    private static let initialized: Bool = {
        curl_global_init(Int(CURL_GLOBAL_ALL)) == CURLE_OK
    }()

    static func initializeOnce() {
        _ = initialized
    }

    /// The `User-Agent` field of a request without one, as FoundationNetworking writes it: e.g.
    /// "User-Agent: MyService (unknown version) curl/7.88.1".
    static let userAgentLine = "User-Agent: \(ProcessInfo.processInfo.processName) (unknown version) curl/\(version)"

    /// The libcurl version this process runs, e.g. "7.88.1".
    static var version: String {
        guard let info = curl_version_info(CURLVERSION_ELEVENTH), let version = info.pointee.version else { return "" }
        return String(cString: version)
    }
}
#endif
