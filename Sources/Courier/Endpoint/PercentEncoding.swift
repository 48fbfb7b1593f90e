/// The byte sets and the one percent-encoder behind URLs, queries and forms.
enum PercentEncoding {
    /// RFC 3986 unreserved characters: everything else in a query key or value is percent-encoded, so that `+`,
    /// `&`, `=` and `#` arrive as themselves.
    static let unreserved = ByteSet("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    /// RFC 3986 path characters plus `/`; `?`, `#`, `%` and spaces are encoded, so a subpath cannot start a query
    /// or fragment.
    static let pathAllowed = unreserved.union("!$&'()*+,;=:@/")

    /// What a percent-encoded path and query may hold as it is (RFC 3986 `path-abempty [ "?" query ]`).
    static let targetAllowed = pathAllowed.union("?%")

    /// What the WHATWG `application/x-www-form-urlencoded` serializer leaves as it is (a space becomes `+`).
    static let formAllowed = ByteSet("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789*-._")

    private static let hexDigits = Array("0123456789ABCDEF".utf8)

    /// A set of ASCII bytes as a bit mask: asked once per byte of every URL, so a lookup must not hash.
    struct ByteSet: Sendable {
        private var low: UInt64 = 0
        private var high: UInt64 = 0

        init(_ characters: String) {
            for byte in characters.utf8 { insert(byte) }
        }

        func union(_ characters: String) -> ByteSet {
            var union = self
            for byte in characters.utf8 { union.insert(byte) }
            return union
        }

        func contains(_ byte: UInt8) -> Bool {
            switch byte {
            case 0..<64: low & (1 << UInt64(byte)) != 0
            case 64..<128: high & (1 << UInt64(byte - 64)) != 0
            default: false
            }
        }

        /// Whether every byte of `bytes` is in the set.
        func containsAll(_ bytes: some Sequence<UInt8>) -> Bool {
            // A loop, not `allSatisfy(contains)`: the method reference would allocate a closure on every call.
            for byte in bytes where !contains(byte) { return false }
            return true
        }

        private mutating func insert(_ byte: UInt8) {
            switch byte {
            case 0..<64: low |= 1 << UInt64(byte)
            case 64..<128: high |= 1 << UInt64(byte - 64)
            default: break
            }
        }
    }

    /// `string`'s UTF-8 bytes, each outside `allowed` as `%XX`; with `spaceAsPlus`, a space as `+` (forms).
    static func encode(_ string: some StringProtocol, allowing allowed: ByteSet, spaceAsPlus: Bool = false) -> String {
        if allowed.containsAll(string.utf8) { return String(string) }
        var encoded: [UInt8] = []
        encoded.reserveCapacity(string.utf8.count * 3)
        for byte in string.utf8 {
            if allowed.contains(byte) {
                encoded.append(byte)
            } else if spaceAsPlus && byte == UInt8(ascii: " ") {
                encoded.append(UInt8(ascii: "+"))
            } else {
                encoded.append(UInt8(ascii: "%"))
                encoded.append(hexDigits[Int(byte >> 4)])
                encoded.append(hexDigits[Int(byte & 0x0F)])
            }
        }
        return String(decoding: encoded, as: UTF8.self)
    }

    /// `name=value&…` as an HTML form sends it.
    static func form(_ fields: [(name: String, value: String)]) -> String {
        fields.map {
            encode($0.name, allowing: formAllowed, spaceAsPlus: true) + "="
                + encode($0.value, allowing: formAllowed, spaceAsPlus: true)
        }
        .joined(separator: "&")
    }
}
