#if canImport(CCourierCurl)
import CCourierCurl
import CLibcurl
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// How an exchange ended, read on the engine's thread once libcurl is done with it.
extension CurlSending {
    /// What the exchange ended with, by libcurl's code.
    func outcome(of code: CURLcode) -> Result<TransportResponse, any Error> {
        if let stopReason { return .failure(stopReason) }
        // Its body read whole, or cut off past the size kept for one (libcurl's write error).
        if let redirect, code == CURLE_OK || code == CURLE_WRITE_ERROR { return .failure(redirect) }
        guard code == CURLE_OK else {
            return .failure(CurlErrors.error(for: code, of: self))
        }
        guard headTaken else { return .failure(URLError(.badServerResponse)) }
        // The URL asked for, unless libcurl followed a redirect: parsing libcurl's copy of it costs every request.
        var redirects = 0
        _ = courier_curl_info_long(easy, CURLINFO_REDIRECT_COUNT, &redirects)
        var effective: UnsafePointer<CChar>?
        if redirects > 0 { _ = courier_curl_info_string(easy, CURLINFO_EFFECTIVE_URL, &effective) }
        let finalUrl = effective.flatMap { URL(string: String(cString: $0)) } ?? url
        var response = TransportResponse(
            url: finalUrl,
            statusCode: statusCode,
            httpVersion: httpVersion,
            fields: fields,
            body: receiver == nil ? body.body : Data()
        )
        if measuresTimings { response.timings = timings }
        return .success(response)
    }

    /// libcurl's words for the failure, or "" when it gave none.
    var failureWords: String {
        String(cString: handle.errorWords)
    }
}
#endif
