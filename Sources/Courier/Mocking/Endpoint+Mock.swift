import Foundation

extension Endpoint {
    /// A mocked answer with `status`, the UTF-8 bytes of `bodyJson` as body and `headers`.
    ///
    /// ```swift
    /// var mockedResponse: MockedResponse? {
    ///     switch self {
    ///     case .list: mock(status: .ok, bodyJson: #"[{"id":1,"title":"Buy milk"}]"#)
    ///     case .show(let id): mock(status: .ok, bodyJson: #"{"id":\#(id),"title":"Buy milk"}"#)
    ///     case .create(let todo): try? mock(status: .created, bodyEncodable: todo)
    ///     case .delete: mock(status: .noContent)
    ///     }
    /// }
    /// ```
    public func mock(status: HttpStatus, bodyJson: String? = nil, headers: [String: String] = [:]) -> MockedResponse {
        var mocked = MockedResponse(status: status, bodyJson: bodyJson, headers: headers)
        mocked.subpath = subpath
        return mocked
    }

    /// A mocked answer with `status`, `bodyEncodable` encoded by the endpoint's ``encoder`` as body and `headers`.
    /// - Throws: The `EncodingError` when the value does not encode.
    public func mock<Body: Encodable>(
        status: HttpStatus,
        bodyEncodable: Body,
        headers: [String: String] = [:]
    ) throws -> MockedResponse {
        var mocked = try MockedResponse(
            status: status,
            bodyEncodable: bodyEncodable,
            encoder: encoder,
            headers: headers
        )
        mocked.subpath = subpath
        return mocked
    }
}
