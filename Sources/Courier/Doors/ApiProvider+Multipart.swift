import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension ApiProvider {
    /// Sends `endpoint` as a `POST` whose body is a `multipart/form-data` of `params` and `media`, and returns the
    /// decoded answer: Microya's multipart door, with its name (this one is `async`; `CourierCombine` adds the publisher).
    ///
    /// The endpoint's URL, query, headers, plugins, mocks and decoding apply as for ``response(on:decodeBodyTo:)``;
    /// only its method, body and `Content-Type` (with the boundary) are replaced. The text fields come first, sorted by name (a dictionary has no order
    /// of its own), then the files in the order given. Courier's own spelling is an endpoint whose method is
    /// `.post(body: .multipart([…]))`.
    /// - Parameters:
    ///   - media: The files, sent after the text fields.
    ///   - params: The text fields, or `nil` for none.
    ///   - endpoint: The endpoint whose URL, query and headers are used.
    ///   - decodeBodyTo: The type the 2xx body decodes to.
    public func multipartPublisher<ResultType: Decodable>(
        media: [MultipartMediaModel],
        params: [String: String]?,
        on endpoint: EndpointType,
        decodeBodyTo: ResultType.Type
    ) async -> TypedResult<ResultType> {
        let exchange = await exchange(for: endpoint, method: Self.multipartMethod(media: media, params: params))
        return finish(exchange, endpoint: endpoint)
    }

    /// The `POST` that Microya's multipart doors send: the text fields sorted by name, then the files.
    package static func multipartMethod(media: [MultipartMediaModel], params: [String: String]?) -> HttpMethod {
        let fields = (params ?? [:]).sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
        let parts = fields.map { MultipartPart.text(name: $0.key, value: $0.value) } + media.map(\.part)
        return .post(body: .multipart(parts))
    }
}
