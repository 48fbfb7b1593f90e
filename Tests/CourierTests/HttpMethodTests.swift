import Courier
import Foundation
import Testing

@Suite struct HttpMethodTests {
    @Test func bothMicroyaSpellingsCompileAndAgree() throws {
        let data = Data("{}".utf8)
        let encoded: Data? = try? JSONEncoder().encode(["a": 1])
        #expect(HttpMethod.post(body: data) == .post(data))
        #expect(HttpMethod.put(body: data) == .put(data))
        #expect(HttpMethod.patch(body: data) == .patch(data))
        #expect(HttpMethod.post(body: encoded).body == encoded)
        #expect(HttpMethod.post().body == nil)
    }

    @Test(arguments: [
        (HttpMethod.get, "GET"), (.head, "HEAD"), (.post(), "POST"), (.put(), "PUT"), (.patch(), "PATCH"),
        (.delete, "DELETE"), (.options, "OPTIONS"), (.custom(verb: "PROPFIND"), "PROPFIND"),
    ])
    func names(method: HttpMethod, name: String) {
        #expect(method.name == name)
    }
}
