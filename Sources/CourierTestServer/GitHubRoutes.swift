import Foundation
import Hummingbird

/// A small GitHub-like API, the service of Moya's own example, for the example ported from Moya.
///
/// - `GET /zen`: a line of text (`text/plain`).
/// - `GET /users/{name}`: `{"login": name, "id": 100}`.
/// - `GET /users/{name}/repos?sort=S`: `[{"name": …}]`, with `S` in each name.
/// - `POST /repos/{owner}/{repo}/issues`: a JSON `{"title", "body"}` answered 201 `{"number": 1, "title": …}`; an
///   empty title is 422 `{"message": …}`.
/// - `POST /gifs?api_key=K&username=U`: a multipart body answered `{"data": {"id": "gif-by-U"}}`; without `api_key` 401
///   `{"message": "Bad credentials"}`.
/// - `POST /login/oauth/access_token`: a form with `client_id` and `code` answered `{"access_token": …}`; without
///   them 401 `{"message": …}`.
enum GitHubRoutes {
    static func add(to router: Router<TestRequestContext>) {
        router.get("/zen") { _, _ in
            Response(
                status: .ok,
                headers: [.contentType: "text/plain; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(string: "Half measures are as bad as nothing at all."))
            )
        }
        router.get("/users/:name") { _, context in
            TestRoutes.json(["login": .string(context.parameters.get("name") ?? ""), "id": .number(100)])
        }
        router.get("/users/:name/repos") { request, context in
            let name = context.parameters.get("name") ?? ""
            let sort = request.uri.queryParameters["sort"].map(String.init) ?? "full_name"
            let body = Data(#"[{"name":"\#(name)-\#(sort)-1"},{"name":"\#(name)-\#(sort)-2"}]"#.utf8)
            return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(data: body))
        }
        router.post("/repos/:owner/:repo/issues") { request, context in
            struct NewIssue: Decodable {
                let title: String
            }
            guard let issue = try? await request.decode(as: NewIssue.self, context: context), !issue.title.isEmpty
            else {
                return TestRoutes.json(["message": .string("Validation Failed")], status: .unprocessableContent)
            }
            return TestRoutes.json(["number": .number(1), "title": .string(issue.title)], status: .created)
        }
        router.post("/gifs") { request, _ in
            guard request.uri.queryParameters["api_key"] != nil else {
                return TestRoutes.json(["message": .string("Bad credentials")], status: .unauthorized)
            }
            let username = request.uri.queryParameters["username"].map(String.init) ?? "anonymous"
            let data = Data(#"{"data":{"id":"gif-by-\#(username)"}}"#.utf8)
            return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(data: data))
        }
        router.post("/login/oauth/access_token") { request, _ in
            var request = request
            let body = try await request.collectBody(upTo: ReceivedRequest.maximumBodySize)
            let fields = ReceivedRequest(
                method: "POST",
                path: "",
                query: nil,
                headers: [],
                body: Data(body.readableBytesView)
            )
            .formFields
            guard let code = fields.first(where: { $0.name == "code" })?.value,
                fields.contains(where: { $0.name == "client_id" })
            else {
                return TestRoutes.json(["message": .string("a client_id and a code are needed")], status: .unauthorized)
            }
            return TestRoutes.json(["access_token": .string("token-for-\(code)")])
        }
    }
}

extension ResponseBody {
    /// A body of `data`, as the routes above answer.
    fileprivate init(data: Data) {
        self.init(byteBuffer: ByteBuffer(bytes: data))
    }
}
