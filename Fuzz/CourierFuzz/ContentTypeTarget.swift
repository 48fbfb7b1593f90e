#if DEBUG
@testable import Courier
import Foundation

extension FuzzTarget {
    /// A `Content-Type` value reduced to its essence: lowercase, without parameters or surrounding whitespace, and
    /// reducing it again changes nothing.
    ///
    /// The parameter check looks for the byte: `String.contains(";")` also matches U+037E, the Greek question mark,
    /// which is canonically equivalent to ";" but is no separator in a header.
    static let contentType = FuzzTarget(name: "content-type") { input in
        let value = FuzzInput.text(input)
        let essence = MediaType.essence(of: value)
        let problem: String? =
            if !FuzzInput.same(MediaType.essence(of: essence), essence) {
                "is not idempotent"
            } else if !FuzzInput.same(essence.lowercased(), essence) {
                "is not lowercase"
            } else if essence.utf8.contains(UInt8(ascii: ";")) {
                "still has a parameter"
            } else if let first = essence.unicodeScalars.first, CharacterSet.whitespaces.contains(first) {
                "starts with whitespace"
            } else if let last = essence.unicodeScalars.last, CharacterSet.whitespaces.contains(last) {
                "ends with whitespace"
            } else { nil }
        if let problem {
            preconditionFailure(
                "MediaType.essence \(problem): \(value.debugDescription) gave \(essence.debugDescription)"
            )
        }
    }
}
#endif
