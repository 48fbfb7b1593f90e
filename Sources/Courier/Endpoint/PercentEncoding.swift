/// The byte sets and the one percent-encoder behind URLs, queries and forms.
enum PercentEncoding {
    /// RFC 3986 unreserved characters: everything else in a query key or value is percent-encoded, so that `+`,
    /// `&`, `=` and `#` arrive as themselves.
    static let unreserved = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~".utf8)

    /// RFC 3986 path characters plus `/`; `?`, `#`, `%` and spaces are encoded, so a subpath cannot start a query
    /// or fragment.
    static let pathAllowed = unreserved.union("!$&'()*+,;=:@/".utf8)

    /// What the WHATWG `application/x-www-form-urlencoded` serializer leaves as it is (a space becomes `+`).
    static let formAllowed = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789*-._".utf8)

    /// RFC 9110 token characters, for methods and header names.
    static let tokenCharacters = unreserved.union("!#$%&'*+^`|".utf8)

    private static let hexDigits = Array("0123456789ABCDEF").map(String.init)

    /// `string`'s UTF-8 bytes, each outside `allowed` as `%XX`; with `spaceAsPlus`, a space as `+` (forms).
    static func encode(_ string: String, allowing allowed: Set<UInt8>, spaceAsPlus: Bool = false) -> String {
        var encoded = ""
        encoded.reserveCapacity(string.utf8.count)
        for byte in string.utf8 {
            if allowed.contains(byte) {
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            } else if spaceAsPlus && byte == UInt8(ascii: " ") {
                encoded += "+"
            } else {
                encoded += "%" + hexDigits[Int(byte >> 4)] + hexDigits[Int(byte & 0x0F)]
            }
        }
        return encoded
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
