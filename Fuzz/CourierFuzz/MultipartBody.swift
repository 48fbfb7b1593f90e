#if DEBUG
import Foundation

/// A `multipart/form-data` body split as a server splits it (RFC 2046, section 5.1.1): the parts' header blocks and
/// contents, or `nil` when the body is not framed by its boundary.
enum MultipartBody {
    static func parts(of body: Data, boundary: String) -> [(header: String, content: Data)]? {
        let body = Array(body)
        let first = Array("--\(boundary)\r\n".utf8)
        // Each part's content ends at the next CRLF and delimiter.
        let delimiter = Array("\r\n--\(boundary)".utf8)
        guard body.starts(with: first) else { return nil }
        var parts: [(header: String, content: Data)] = []
        var position = first.count
        while true {
            guard let end = firstIndex(of: delimiter, in: body[...], from: position),
                let headerEnd = firstIndex(of: Array("\r\n\r\n".utf8), in: body[..<end], from: position)
            else { return nil }
            let header = String(decoding: body[position..<headerEnd], as: UTF8.self)
            parts.append((header, Data(body[(headerEnd + 4)..<end])))
            let after = body[(end + delimiter.count)...]
            if after.elementsEqual("--\r\n".utf8) { return parts }
            guard after.starts(with: "\r\n".utf8) else { return nil }
            position = after.startIndex + 2
        }
    }

    /// Where `needle` first occurs in `haystack` at or after `start`.
    private static func firstIndex(of needle: [UInt8], in haystack: ArraySlice<UInt8>, from start: Int) -> Int? {
        guard haystack.endIndex - start >= needle.count else { return nil }
        return (start...(haystack.endIndex - needle.count)).first {
            haystack[$0..<($0 + needle.count)].elementsEqual(needle)
        }
    }
}
#endif
