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
