#if canImport(CCourierCurl)
import CCourierCurl
import CLibcurl
import Foundation

extension CurlSending {
    /// The phases of the sending from libcurl's clock, which gives each as the time from the start to its end.
    var timings: SendingTimings {
        func elapsed(_ info: CURLINFO) -> Int64 {
            var microseconds: curl_off_t = 0
            _ = courier_curl_info_offset(easy, info, &microseconds)
            return Int64(microseconds)
        }
        let firstByte = elapsed(CURLINFO_STARTTRANSFER_TIME_T)
        var connections = 0
        _ = courier_curl_info_long(easy, CURLINFO_NUM_CONNECTS, &connections)
        var redirects = 0
        _ = courier_curl_info_long(easy, CURLINFO_REDIRECT_COUNT, &redirects)
        // After a redirect libcurl followed, its phase times are sums over the hops, and its count of connections
        // theirs too: only the first byte of the last answer, from the start, is told. No connection made: the
        // request went out on a kept-alive one, with no lookup and no handshake.
        guard redirects == 0 else { return SendingTimings(firstByte: .microseconds(firstByte), reusedConnection: nil) }
        guard connections > 0 else {
            return SendingTimings(firstByte: .microseconds(firstByte), reusedConnection: true)
        }
        let lookedUp = elapsed(CURLINFO_NAMELOOKUP_TIME_T)
        let connected = elapsed(CURLINFO_CONNECT_TIME_T)
        let secured = elapsed(CURLINFO_APPCONNECT_TIME_T)
        return SendingTimings(
            // libcurl times the reading of an IP address too; no name was looked up.
            nameLookup: Self.isAddress(url.host) ? nil : .microseconds(lookedUp),
            connect: .microseconds(max(connected - lookedUp, 0)),
            tlsHandshake: secured > 0 ? .microseconds(max(secured - connected, 0)) : nil,
            firstByte: .microseconds(firstByte),
            reusedConnection: false
        )
    }

    /// Whether `host` is an IPv4 or IPv6 address rather than a name.
    static func isAddress(_ host: String?) -> Bool {
        guard let host else { return false }
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        var address = in6_addr()
        return inet_pton(AF_INET, bare, &address) == 1 || inet_pton(AF_INET6, bare, &address) == 1
    }
}
#endif
