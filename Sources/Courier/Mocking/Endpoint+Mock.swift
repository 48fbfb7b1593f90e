import Foundation

extension Endpoint {
    /// A mocked answer with `status`, the UTF-8 bytes of `bodyJson` as body and `headers`.
    ///
    /// ```swift
    /// var mockedResponse: MockedResponse? {
    ///     switch self {
    ///     case .list: mock(status: .ok, bodyJson: #"[{"id":1,"title":"Buy milk"}]"#)
    ///     case .delete: mock(status: .noContent)
    ///     }
    /// }
    /// ```
    public func mock(status: HttpStatus, bodyJson: String? = nil, headers: [String: String] = [:]) -> MockedResponse {
        MockedResponse(status: status, bodyJson: bodyJson, headers: headers)
    }

    /// A mocked answer with `status`, `bodyEncodable` encoded by the endpoint's ``encoder`` as body and `headers`.
    /// - Throws: The `EncodingError` when the value does not encode.
    public func mock<Body: Encodable>(
        status: HttpStatus,
        bodyEncodable: Body,
        headers: [String: String] = [:]
    ) throws -> MockedResponse {
        try MockedResponse(status: status, bodyEncodable: bodyEncodable, encoder: encoder, headers: headers)
    }
}
