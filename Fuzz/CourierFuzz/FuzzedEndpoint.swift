#if DEBUG
@testable import Courier

/// An endpoint whose subpath and query come from the fuzzer; targets pass the base URL themselves.
struct FuzzedEndpoint<ClientErrorType: Decodable & Sendable>: Endpoint {
    var subpath = ""
    var orderedQueryParameters: [(key: String, value: QueryParameterValue)] = []
    var method: HttpMethod { .get }
}

/// The body of a 4xx answer in the `api-error` target: what many APIs send.
struct FuzzedClientError: Decodable, Sendable {
    let message: String
}
#endif
