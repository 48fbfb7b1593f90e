/// Reading header fields as transports hand them over, a repeated field's values joined with commas.
enum HeaderFields {
    /// The body's announced length, or `nil` when none is announced or it says nothing of what arrives.
    static func contentLength(in fields: [String: String]) -> Int64? {
        // A compressed body arrives decompressed: its announced length says nothing about what is received.
        let encoding = field("Content-Encoding", in: fields)?.lowercased()
        guard encoding == nil || encoding == "identity" else { return nil }
        return field("Content-Length", in: fields).flatMap { Int64($0.trimmingCharacters(in: .whitespaces)) }
    }

    /// The value of the field `name`, whatever the case of its name.
    static func field(_ name: String, in fields: [String: String]) -> String? {
        if let value = fields[name] { return value }
        return fields.first { $0.key.caseInsensitiveCompare(name) == .orderedSame }?.value
    }
}
