import Courier
import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The ways to write a mocked answer.
@Suite struct MockedResponseTests {
    /// An endpoint whose encoder writes snake_case keys, to see that `mock(bodyEncodable:)` uses it.
    enum SnakeApi: Endpoint {
        typealias ClientErrorType = TestError
        case profile
        var baseUrl: URL { URL(string: "https://api.example.com")! }
        var subpath: String { "profile" }
        var method: HttpMethod { .get }
        var encoder: JSONEncoder {
            let encoder = JSONEncoder()
            encoder.keyEncodingStrategy = .convertToSnakeCase
            return encoder
        }
    }

    struct Profile: Encodable {
        let displayName: String
    }

    @Test func aJsonStringBecomesItsUtf8Bytes() {
        let mocked = SnakeApi.profile.mock(status: .ok, bodyJson: #"{"name":"Zoë"}"#, headers: ["ETag": "1"])
        #expect(mocked.bodyData == Data(#"{"name":"Zoë"}"#.utf8))
        #expect(mocked.status == .ok)
        #expect(mocked.statusCode == 200)
        #expect(mocked.headers == ["ETag": "1"])
        #expect(mocked.transportError == nil)
        #expect(SnakeApi.profile.mock(status: .noContent).bodyData == nil)
    }

    @Test func anEncodableIsEncodedWithTheEndpointsEncoder() throws {
        let mocked = try SnakeApi.profile.mock(status: .ok, bodyEncodable: Profile(displayName: "Ann"))
        #expect(mocked.bodyData == Data(#"{"display_name":"Ann"}"#.utf8))
    }

    @Test func aValueThatCannotBeEncodedThrows() {
        #expect(throws: EncodingError.self) {
            try SnakeApi.profile.mock(status: .ok, bodyEncodable: Double.nan)
        }
    }

    @Test func aTransportFailureHasNoStatusAndCarriesTheError() {
        let failure = MockedResponse.transportFailure(URLError(.notConnectedToInternet))
        #expect(failure.transportError?.code == .notConnectedToInternet)
        #expect(failure.statusCode == 0)
        #expect(failure.bodyData == nil)
    }
}
