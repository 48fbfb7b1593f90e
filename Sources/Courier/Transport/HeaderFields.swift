/// Reading header fields as transports hand them over, a repeated field's values joined with commas.
package enum HeaderFields {
    /// The body's announced length, or `nil` when none is announced or it says nothing of what arrives.
    package static func contentLength(in fields: [String: String]) -> Int64? {
        // A compressed body arrives decompressed: its announced length says nothing about what is received.
        let encoding = field("Content-Encoding", in: fields)?.lowercased()
        guard encoding == nil || encoding == "identity" else { return nil }
        guard let length = field("Content-Length", in: fields) else { return nil }
        // Trimmed only when needed: a `CharacterSet` costs more than the rest of reading the head.
        return Int64(length) ?? Int64(length.trimmingCharacters(in: .whitespaces))
    }

    /// The value of the field `name`, whatever the case of its name.
    package static func field(_ name: String, in fields: [String: String]) -> String? {
        if let value = fields[name] { return value }
        // Byte by byte: Foundation's `caseInsensitiveCompare` cost more than the rest of reading a stream's head.
        return fields.first { sameName($0.key, name) }?.value
    }

    /// Whether two field names are the same but for the case of their ASCII letters.
    package static func sameName(_ one: String, _ other: String) -> Bool {
        one.utf8.count == other.utf8.count && one.utf8.elementsEqual(other.utf8) { lowercased($0) == lowercased($1) }
    }

    private static func lowercased(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 : byte
    }
}
