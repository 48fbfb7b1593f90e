/// The success value of a request whose response body does not matter: any body, or none, decodes to it.
public struct EmptyBodyResponse: Decodable, Equatable, Hashable, Sendable {
    /// Creates the empty value.
    public init() {}
}
