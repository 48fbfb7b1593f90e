import Foundation

/// Turns an `Encodable` value's properties into form fields, in the order its `encode(to:)` writes them.
///
/// A form is flat: each property must be a scalar (see ``ScalarText``), an optional one (`nil` is left out) or an
/// array of them (the field repeats). A nested object is refused, because a form has no agreed way to say it.
enum FormFieldEncoder {
    static func fields(of value: any Encodable) throws -> [(name: String, value: String)] {
        let encoder = TextsEncoder(codingPath: [], acceptsProperties: true)
        try value.encode(to: encoder)
        if let failure = encoder.failure { throw failure }
        guard encoder.texts.isEmpty else {
            throw nestingError([], "a form body must be a value with properties, like a struct, not a single value")
        }
        guard value is [String: Any] else { return encoder.fields }
        // A dictionary writes its keys in its own order, which changes from run to run: sort them (stably, so the
        // repeated fields of an array keep their order).
        return encoder.fields.enumerated()
            .sorted { left, right in
                left.element.name == right.element.name
                    ? left.offset < right.offset
                    : left.element.name.utf8.lexicographicallyPrecedes(right.element.name.utf8)
            }
            .map(\.element)
    }

    static func texts<T: Encodable>(of value: T, codingPath: [any CodingKey]) throws -> [String] {
        if let text = ScalarText.text(of: value) { return [text] }
        let encoder = TextsEncoder(codingPath: codingPath, acceptsProperties: false)
        try value.encode(to: encoder)
        if let failure = encoder.failure { throw failure }
        return encoder.texts
    }

    static func nestingError(_ codingPath: [any CodingKey], _ description: String) -> EncodingError {
        EncodingError.invalidValue((), EncodingError.Context(codingPath: codingPath, debugDescription: description))
    }

    /// Collects what one value encodes to: properties as fields at the top level, scalar texts below it.
    final class TextsEncoder: Encoder {
        let codingPath: [any CodingKey]
        let acceptsProperties: Bool
        var userInfo: [CodingUserInfoKey: Any] { [:] }
        var fields: [(name: String, value: String)] = []
        var texts: [String] = []
        var failure: EncodingError?

        init(codingPath: [any CodingKey], acceptsProperties: Bool) {
            self.codingPath = codingPath
            self.acceptsProperties = acceptsProperties
        }

        func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
            if !acceptsProperties { refuseNestedObject(at: codingPath) }
            return KeyedEncodingContainer(PropertiesContainer<Key>(encoder: self))
        }

        /// Records the first object found below the top level, which a flat form cannot hold.
        func refuseNestedObject(at codingPath: [any CodingKey]) {
            let path = codingPath.map(\.stringValue).joined(separator: ".")
            failure = failure ?? nestingError(codingPath, "\(path) is a nested object, which a form cannot hold")
        }

        func unkeyedContainer() -> any UnkeyedEncodingContainer { TextsContainer(encoder: self) }
        func singleValueContainer() -> any SingleValueEncodingContainer { TextsContainer(encoder: self) }

        func add<T: Encodable>(_ value: T, codingPath: [any CodingKey]) throws {
            texts += try FormFieldEncoder.texts(of: value, codingPath: codingPath)
        }
    }

    /// A value's properties: each becomes one field per text it encodes to.
    struct PropertiesContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let encoder: TextsEncoder
        var codingPath: [any CodingKey] { encoder.codingPath }

        mutating func encodeNil(forKey key: Key) throws {}

        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
            for text in try FormFieldEncoder.texts(of: value, codingPath: codingPath + [key]) {
                encoder.fields.append((name: key.stringValue, value: text))
            }
        }

        mutating func nestedContainer<NestedKey: CodingKey>(
            keyedBy keyType: NestedKey.Type,
            forKey key: Key
        ) -> KeyedEncodingContainer<NestedKey> {
            encoder.refuseNestedObject(at: codingPath + [key])
            return TextsEncoder(codingPath: codingPath + [key], acceptsProperties: true).container(keyedBy: keyType)
        }

        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            encoder.failure = encoder.failure ?? nestingError(codingPath + [key], "write arrays with encode(_:forKey:)")
            return TextsContainer(encoder: TextsEncoder(codingPath: codingPath + [key], acceptsProperties: false))
        }

        mutating func superEncoder() -> any Encoder { encoder }
        mutating func superEncoder(forKey key: Key) -> any Encoder { encoder }
    }

    /// Scalars, one or many: a single value, or the elements of an array.
    struct TextsContainer: UnkeyedEncodingContainer, SingleValueEncodingContainer {
        let encoder: TextsEncoder
        var codingPath: [any CodingKey] { encoder.codingPath }
        var count: Int { encoder.texts.count }

        mutating func encodeNil() throws {}
        mutating func encode<T: Encodable>(_ value: T) throws { try encoder.add(value, codingPath: codingPath) }

        mutating func nestedContainer<NestedKey: CodingKey>(
            keyedBy keyType: NestedKey.Type
        ) -> KeyedEncodingContainer<NestedKey> {
            // An object inside a value or an array: the encoder records the failure.
            encoder.container(keyedBy: keyType)
        }

        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { self }
        mutating func superEncoder() -> any Encoder { encoder }
    }
}
