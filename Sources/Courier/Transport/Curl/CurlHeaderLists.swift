#if canImport(CCourierCurl)
import CLibcurl

/// A request's header fields as libcurl's lists, for the server (with URLSession's `User-Agent` when it has none) and
/// for a proxy (`Proxy-Authorization`), without the fields libcurl would add of its own accord (`Expect:
/// 100-continue` before a body, a form `Content-Type` on a `POST` without one, even one without a body).
///
/// libcurl reads a list without copying it, and never changes it: one list serves every exchange with the same fields
/// (``CurlSpares`` keeps the last one made), and is freed when the last of them lets it go.
final class CurlHeaderLists: @unchecked Sendable {
    let fields: [String: String]
    let hasBody: Bool
    let usesPost: Bool
    let server: UnsafeMutablePointer<curl_slist>?
    let proxy: UnsafeMutablePointer<curl_slist>?

    /// - Parameters:
    ///   - hasBody: Whether the request has a body, before which libcurl would ask `Expect: 100-continue`.
    ///   - usesPost: Whether libcurl sends it as a `POST` (`CURLOPT_POST`: every request with a body, and a `POST`
    ///     without one), to which it would add a form `Content-Type`.
    init(fields: [String: String], hasBody: Bool, usesPost: Bool) {
        self.fields = fields
        self.hasBody = hasBody
        self.usesPost = usesPost
        var server: UnsafeMutablePointer<curl_slist>?
        var proxy: UnsafeMutablePointer<curl_slist>?
        var hasExpect = false
        var hasContentType = false
        var hasUserAgent = false
        for (name, value) in fields {
            if HeaderFields.sameName(name, "Proxy-Authorization") {
                proxy = Self.append(name, value, to: proxy)
                continue
            }
            server = Self.append(name, value, to: server)
            if HeaderFields.sameName(name, "Expect") {
                hasExpect = true
            } else if HeaderFields.sameName(name, "Content-Type") {
                hasContentType = true
            } else if HeaderFields.sameName(name, "User-Agent") {
                hasUserAgent = true
            }
        }
        // An empty field tells libcurl not to add its own; neither is needed where libcurl adds none.
        if hasBody, !hasExpect { server = curl_slist_append(server, "Expect:") }
        if usesPost, !hasContentType { server = curl_slist_append(server, "Content-Type:") }
        if !hasUserAgent {
            // What URLSession sends on Linux, which some APIs require. A line of the list rather than libcurl's
            // `CURLOPT_USERAGENT`, which copies the text and formats a line of its own.
            server = CurlLibrary.userAgentLine.withCString { curl_slist_append(server, $0) }
        }
        self.server = server
        self.proxy = proxy
    }

    deinit {
        curl_slist_free_all(server)
        curl_slist_free_all(proxy)
    }

    /// Whether these are the lists for `fields` sent the same way.
    func serve(_ fields: [String: String], hasBody: Bool, usesPost: Bool) -> Bool {
        self.hasBody == hasBody && self.usesPost == usesPost && self.fields == fields
    }

    /// Appends `name: value` (`name;`, libcurl's spelling of a field with an empty value) to `list`, written straight
    /// into the C string libcurl copies.
    private static func append(
        _ name: String,
        _ value: String,
        to list: UnsafeMutablePointer<curl_slist>?
    ) -> UnsafeMutablePointer<curl_slist>? {
        var name = name
        var value = value
        return name.withUTF8 { name in
            value.withUTF8 { value in
                let length = name.count + (value.isEmpty ? 1 : 2 + value.count)
                return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: length + 1) { line in
                    var end = line.initialize(fromContentsOf: name)
                    if value.isEmpty {
                        line.initializeElement(at: end, to: UInt8(ascii: ";"))
                        end += 1
                    } else {
                        line.initializeElement(at: end, to: UInt8(ascii: ":"))
                        line.initializeElement(at: end + 1, to: UInt8(ascii: " "))
                        end = line[(end + 2)...].initialize(fromContentsOf: value)
                    }
                    line.initializeElement(at: end, to: 0)
                    return line.withMemoryRebound(to: CChar.self) { curl_slist_append(list, $0.baseAddress) }
                }
            }
        }
    }
}
#endif
