import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension HttpAuthPlugin {
    /// Where an API key goes.
    public enum Placement: Sendable {
        /// A request header with this name.
        case header(String)
        /// A query parameter with this name, appended after the endpoint's own.
        case queryParameter(String)
    }

    /// Why the credentials cannot be sent with Basic authentication.
    public struct InvalidCredentials: LocalizedError, Sendable {
        /// What is wrong, without the credentials themselves.
        public let reason: String
        public var errorDescription: String? { reason }
    }

    static func basicHeader(username: String, password: String) -> Result<String, InvalidCredentials> {
        if username.contains(":") {
            return .failure(InvalidCredentials(reason: "a Basic auth username cannot contain \":\" (RFC 7617)"))
        }
        let hasControlCharacter = (username + password).unicodeScalars.contains {
            $0.properties.generalCategory == .control
        }
        if hasControlCharacter {
            return .failure(InvalidCredentials(reason: "Basic auth credentials cannot contain control characters"))
        }
        let userPass =
            username.precomposedStringWithCanonicalMapping + ":"
            + password.precomposedStringWithCanonicalMapping
        return .success("Basic " + Data(userPass.utf8).base64EncodedString())
    }

    static func add(_ key: String, at placement: Placement, to request: inout URLRequest) throws {
        switch placement {
        case .header(let name):
            AuthorizationHeader.set(key, named: name, on: &request)
        case .queryParameter(let name):
            guard let url = request.url, var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
            else { return }
            let encodedName = PercentEncoding.encode(name, allowing: PercentEncoding.unreserved)
            let existing = components.percentEncodedQuery ?? ""
            let names = existing.split(separator: "&").map { $0.split(separator: "=", maxSplits: 1).first ?? "" }
            guard !names.contains(where: { $0 == encodedName }) else { return }
            let parameter = encodedName + "=" + PercentEncoding.encode(key, allowing: PercentEncoding.unreserved)
            components.percentEncodedQuery = existing.isEmpty ? parameter : existing + "&" + parameter
            guard let withKey = components.url else {
                throw InvalidRequestError(
                    reason: "the query parameter \(RequestBuilder.quoted(name)) could not be added"
                )
            }
            request.url = withKey
        }
    }
}
