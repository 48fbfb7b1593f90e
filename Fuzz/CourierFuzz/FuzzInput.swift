#if DEBUG
/// Helpers that turn libFuzzer's raw bytes into the values a target feeds in, and back into readable failure messages.
enum FuzzInput {
    /// The bytes split at every `separator`, keeping empty pieces: libFuzzer learns to insert the separator, so one
    /// input can carry several strings (a subpath and query keys, form fields, multipart parts).
    static func pieces(_ bytes: some Collection<UInt8>, separator: UInt8 = 0) -> [ArraySlice<UInt8>] {
        Array(bytes).split(separator: separator, omittingEmptySubsequences: false)
    }

    /// The bytes as text; invalid UTF-8 becomes U+FFFD, as `String(decoding:)` does wherever Courier reads bytes.
    static func text(_ bytes: some Collection<UInt8>) -> String {
        String(decoding: bytes, as: UTF8.self)
    }

    /// Whether two strings hold the same UTF-8 bytes: `==` on `String` also equates canonically equivalent ones
    /// (`é` and `e` with a combining accent), which would hide a changed byte.
    static func same(_ left: String?, _ right: String?) -> Bool {
        switch (left, right) {
        case (nil, nil): true
        case (let left?, let right?): left.utf8.elementsEqual(right.utf8)
        default: false
        }
    }

    /// Percent-decoded bytes read as UTF-8 without BOM sniffing, as a server reads them (Foundation's
    /// `removingPercentEncoding` drops a leading U+FEFF, which would look like a changed byte); `nil` if a "%" is not
    /// followed by two hex digits. With `plusAsSpace`, "+" is a space, as in a form.
    static func percentDecoded(_ text: some StringProtocol, plusAsSpace: Bool = false) -> String? {
        let bytes = Array(text.utf8)
        var decoded: [UInt8] = []
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%") {
                guard index + 2 < bytes.count, let high = hexValue(bytes[index + 1]),
                    let low = hexValue(bytes[index + 2])
                else { return nil }
                decoded.append(high << 4 | low)
                index += 3
            } else {
                decoded.append(plusAsSpace && byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
                index += 1
            }
        }
        return String(decoding: decoded, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// The bytes as hex, for failure messages: the input may hold control characters that would not print.
    static func hex(_ bytes: some Sequence<UInt8>) -> String {
        bytes.map { byte in
            let digits = String(byte, radix: 16)
            return digits.count == 1 ? "0" + digits : digits
        }
        .joined()
    }
}
#endif
