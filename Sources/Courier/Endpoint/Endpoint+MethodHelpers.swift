import Foundation

/// Microya's helpers for building a method with a body inside an endpoint's ``Endpoint/method``.
///
/// Courier's own spelling says the body kind directly (`.post(body: .json(todo))`, `.post(body: .form(…))`); these
/// keep Microya code compiling with the same meaning.
extension Endpoint {
    /// `POST` with `encodable` encoded now by the endpoint's ``Endpoint/encoder``, sent as `application/json`.
    /// - Throws: The `EncodingError` when the value does not encode.
    public func post(encodable: some Encodable) throws -> HttpMethod {
        .post(body: .data(try encoder.encode(encodable)))
    }

    /// `PATCH` with `encodable` encoded now by the endpoint's ``Endpoint/encoder``, sent as `application/json`.
    /// - Throws: The `EncodingError` when the value does not encode.
    public func patch(encodable: some Encodable) throws -> HttpMethod {
        .patch(body: .data(try encoder.encode(encodable)))
    }

    /// `POST` with the items as an `application/x-www-form-urlencoded` body, in their order; an item without a value
    /// is sent as `name=`.
    public func post(queryItemsToWwwUrlEncode queryItems: [URLQueryItem]) -> HttpMethod {
        .post(body: .form(Self.formFields(queryItems)))
    }

    /// `PATCH` with the items as an `application/x-www-form-urlencoded` body, in their order; an item without a
    /// value is sent as `name=`.
    public func patch(queryItemsToWwwUrlEncode queryItems: [URLQueryItem]) -> HttpMethod {
        .patch(body: .form(Self.formFields(queryItems)))
    }

    private static func formFields(_ queryItems: [URLQueryItem]) -> [(name: String, value: String)] {
        queryItems.map { (name: $0.name, value: $0.value ?? "") }
    }
}
