import Foundation
import Hummingbird

/// Routes that fail on purpose, for retries, token refresh and cancellation.
///
/// - `GET|POST /flaky/{key}?failures=N&status=S[&retryAfter=X|retryAfterDate=X]`: the first N requests for `key`
///   answer status S (503 by default), with `Retry-After: X`, or an HTTP-date X seconds from now;
///   later ones answer 200 `{"attempt": n}`.
/// - `GET /protected?accept=T`: 200 `{"token": T}` with `Authorization: Bearer T`, else 401 `{"code": 401, …}`.
/// - `GET /typed?contentType=T`: 200 `{}` with `Content-Type: T`.
/// - `GET /hold/{id}`: 200, then one byte every 50 ms for a minute; a client that closes the connection is
///   recorded, see ``TestServer/waitForDisconnect(of:)``.
/// - `GET /gather/{key}?count=N`: held until N requests for `key` are held at once, then each answers 200
///   `{"gathered": N}`; after 10 seconds without that, 504. Proves that N requests were in flight together.
enum ResilienceRoutes {
    static func add(to router: Router<TestRequestContext>, state: RouteState) {
        let flaky: @Sendable (Request, TestRequestContext) async throws -> Response = { request, context in
            let key = context.parameters.get("key") ?? ""
            let attempt = await state.ask(key)
            let failures = Int(request.uri.queryParameters["failures"] ?? "") ?? 0
            guard attempt > failures else {
                let code = Int(request.uri.queryParameters["status"] ?? "") ?? 503
                var response = TestRoutes.json(
                    ["code": .number(code), "message": .string("failure \(attempt)")],
                    status: HTTPResponse.Status(code: code)
                )
                addRetryAfter(from: request, to: &response)
                return response
            }
            return TestRoutes.json(["attempt": .number(attempt)])
        }
        router.get("/flaky/:key", use: flaky)
        router.get("/gather/:key") { request, context in
            let key = context.parameters.get("key") ?? ""
            let count = Int(request.uri.queryParameters["count"] ?? "") ?? 1
            guard await state.gather(key, count: count, within: .seconds(10)) else {
                return TestRoutes.json(
                    ["code": .number(504), "message": .string("not gathered")],
                    status: .gatewayTimeout
                )
            }
            return TestRoutes.json(["gathered": .number(count)])
        }
        router.post("/flaky/:key", use: flaky)
        router.get("/protected") { request, _ in
            let accepted = String(request.uri.queryParameters["accept"] ?? "")
            guard request.headers[.authorization] == "Bearer \(accepted)" else {
                return TestRoutes.json(
                    ["code": .number(401), "message": .string("token rejected")],
                    status: .unauthorized
                )
            }
            return TestRoutes.json(["token": .string(accepted)])
        }
        router.get("/typed") { request, _ in
            var response = TestRoutes.json([:])
            response.headers[.contentType] = String(request.uri.queryParameters["contentType"] ?? "")
            return response
        }
        router.get("/hold/:id") { _, context in
            let id = context.parameters.get("id") ?? ""
            return Response(
                status: .ok,
                headers: [.contentType: "application/octet-stream"],
                body: ResponseBody { writer in
                    do {
                        for _ in 0..<1_200 {
                            try await writer.write(ByteBuffer(string: "."))
                            try await Task.sleep(for: .milliseconds(50))
                        }
                        try await writer.finish(nil)
                    } catch {
                        await state.recordDisconnect(id)
                        throw error
                    }
                }
            )
        }
    }

    /// `Retry-After` in seconds, or as an HTTP-date `X` seconds from now (the server stamps its own `Date`).
    private static func addRetryAfter(from request: Request, to response: inout Response) {
        if let seconds = request.uri.queryParameters["retryAfter"] {
            response.headers[.retryAfter] = String(seconds)
        }
        if let offset = request.uri.queryParameters["retryAfterDate"].flatMap({ Double(String($0)) }) {
            let now = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
            response.headers[.retryAfter] = httpDate(now.addingTimeInterval(offset))
        }
    }

    static func httpDate(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: date)
    }
}
