import Courier
import Foundation
import Testing

extension HttpBody {
    /// The bytes of a `.data` body, or `nil` for any other kind.
    var rawData: Data? {
        guard case .data(let data, _) = self else { return nil }
        return data
    }
}

@Suite struct HttpMethodTests {
    @Test func theMicroyaSpellingsWithDataCompileAndCarryTheBytes() throws {
        let data = Data("{}".utf8)
        let encoded: Data? = try? JSONEncoder().encode(["a": 1])
        for method in [HttpMethod.post(body: data), .post(data), .put(body: data), .put(data), .patch(data)] {
            #expect(method.body?.rawData == data)
        }
        #expect(HttpMethod.post(body: encoded).body?.rawData == encoded)
        #expect(HttpMethod.post().body == nil)
        #expect(HttpMethod.post(body: nil).body == nil)
        #expect(HttpMethod.post(body: Optional<Data>.none).body == nil)
    }

    @Test func aDeleteWithABodyIsSentAsDelete() {
        let method = HttpMethod.delete(body: .json(["id": 3]))
        #expect(method.name == "DELETE")
        #expect(method.body != nil)
    }

    @Test(arguments: [
        (HttpMethod.get, "GET"), (.head, "HEAD"), (.post(), "POST"), (.put(), "PUT"), (.patch(), "PATCH"),
        (.delete, "DELETE"), (.options, "OPTIONS"), (.custom(verb: "PROPFIND"), "PROPFIND"),
    ])
    func names(method: HttpMethod, name: String) {
        #expect(method.name == name)
    }
}
