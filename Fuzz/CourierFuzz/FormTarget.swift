#if DEBUG
@testable import Courier
import Foundation

extension FuzzTarget {
    /// Form fields (names and values between NUL bytes) encoded as `application/x-www-form-urlencoded` and decoded
    /// the way a server does give back exactly the fields, in order; a dictionary's fields come sorted by name.
    static let form = FuzzTarget(name: "form") { input in
        let pieces = FuzzInput.pieces(input).map { FuzzInput.text($0) }
        let fields = stride(from: 0, to: pieces.count - 1, by: 2).map { (name: pieces[$0], value: pieces[$0 + 1]) }
        let encoded = PercentEncoding.form(fields)
        let decoded = decodedForm(encoded)
        guard let decoded,
            decoded.elementsEqual(
                fields,
                by: { FuzzInput.same($0.name, $1.name) && FuzzInput.same($0.value, $1.value) }
            )
        else {
            preconditionFailure(
                "the form fields \(fields) were encoded as \(encoded.debugDescription), "
                    + "which decodes as \(decoded.map { "\($0)" } ?? "nothing")"
            )
        }
        checkDictionary(fields)
    }

    /// What `FormFieldEncoder` makes of a `[String: String]`: one field per key, sorted by the key's UTF-8 bytes.
    private static func checkDictionary(_ fields: [(name: String, value: String)]) {
        let dictionary = Dictionary(fields, uniquingKeysWith: { _, last in last })
        let expected = dictionary.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
        do {
            let encoded = try FormFieldEncoder.fields(of: dictionary)
            guard
                encoded.elementsEqual(
                    expected,
                    by: { FuzzInput.same($0.name, $1.key) && FuzzInput.same($0.value, $1.value) }
                )
            else {
                preconditionFailure("FormFieldEncoder gave \(encoded) for \(dictionary); expected \(expected)")
            }
        } catch {
            preconditionFailure("FormFieldEncoder refused the flat dictionary \(dictionary): \(error)")
        }
    }

    /// `name=value&…` read as the WHATWG URL standard's form parser reads it, or `nil` if a "%" is not followed by
    /// two hex digits (the encoder escapes every "%").
    private static func decodedForm(_ form: String) -> [(name: String, value: String)]? {
        guard !form.isEmpty else { return [] }
        var fields: [(name: String, value: String)] = []
        for field in form.split(separator: "&", omittingEmptySubsequences: false) {
            let equals = field.firstIndex(of: "=") ?? field.endIndex
            let decode = { (text: Substring) in FuzzInput.percentDecoded(text, plusAsSpace: true) }
            guard let name = decode(field[..<equals]), let value = decode(field[equals...].dropFirst()) else {
                return nil
            }
            fields.append((name, value))
        }
        return fields
    }
}
#endif
