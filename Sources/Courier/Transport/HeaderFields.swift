import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// HTTP's field rules, in one place for every transport: names, lengths, and fields as transports hand them over,
/// a repeated field's values joined with commas.
package enum HeaderFields {
    /// Whether `bytes` are a method or a field name: a non-empty RFC 9110 token (`tchar`, section 5.6.2).
    package static func isToken(_ bytes: some Collection<UInt8>) -> Bool {
        !bytes.isEmpty && tokenBytes.containsAll(bytes)
    }

    private static let tokenBytes = PercentEncoding.unreserved.union("!#$%&'*+^`|")

    /// The body's announced length, or `nil` when none is announced or it says nothing of what arrives.
    package static func contentLength(in fields: [String: String]) -> Int64? {
        announcedLength(
            contentLength: field("Content-Length", in: fields),
            contentEncoding: field("Content-Encoding", in: fields)
        )
    }

    /// The body's length as it will arrive, from the `Content-Length` and `Content-Encoding` fields: `nil` when
    /// none is announced, when it is not one number, or when an encoding makes it the length of the compressed
    /// bytes (the transports hand the body over decompressed).
    package static func announcedLength(contentLength: String?, contentEncoding: String?) -> Int64? {
        if let contentEncoding, !sameName(contentEncoding, "identity") { return nil }
        guard let length = contentLength else { return nil }
        // Trimmed only when needed: a `CharacterSet` costs more than the rest of reading the head.
        return Int64(length) ?? Int64(length.trimmingCharacters(in: .whitespaces))
    }

    /// Adds `value` under `name`, after a comma and a space when `name` is there already, as URLSession joins a
    /// repeated field.
    package static func add(_ value: String, named name: String, to fields: inout [String: String]) {
        fields[name] = fields[name].map { "\($0), \(value)" } ?? value
    }

    /// The response's header fields as names and values; Foundation has joined repeated ones with commas.
    package static func dictionary(of response: URLResponse?) -> [String: String] {
        var fields: [String: String] = [:]
        for (name, value) in (response as? HTTPURLResponse)?.allHeaderFields ?? [:] {
            if let name = name as? String, let value = value as? String { fields[name] = value }
        }
        return fields
    }

    /// The value of the field `name`, whatever the case of its name.
    package static func field(_ name: String, in fields: [String: String]) -> String? {
        if let value = fields[name] { return value }
        // Byte by byte: Foundation's `caseInsensitiveCompare` cost more than the rest of reading a stream's head.
        return fields.first { sameName($0.key, name) }?.value
    }

    /// Whether two field names are the same but for the case of their ASCII letters.
    package static func sameName(_ one: String, _ other: String) -> Bool {
        sameName(one.utf8, other.utf8)
    }

    /// ``sameName(_:_:)`` for names as bytes, e.g. as a transport received them.
    package static func sameName(_ one: some Collection<UInt8>, _ other: some Collection<UInt8>) -> Bool {
        one.count == other.count && one.elementsEqual(other) { lowercased($0) == lowercased($1) }
    }

    private static func lowercased(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 : byte
    }
}
