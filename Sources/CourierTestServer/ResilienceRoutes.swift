import Foundation
import HTTPTypes
import Hummingbird

/// Routes that fail or hang on purpose, for retries, token refresh, cancellation, timeouts and size limits.
///
/// - `GET|POST /flaky/{key}?failures=N&status=S[&retryAfter=X|retryAfterDate=X]`: the first N requests for `key`
///   answer status S (503 by default), with `Retry-After: X`, or an HTTP-date X seconds from now together with
///   `X-Retry-After-From`, the HTTP-date of that "now" (Hummingbird stamps `Date` itself, a moment later, so
///   `Date` can be a second past it); later ones answer 200 `{"attempt": n}`.
/// - `GET /protected?accept=T`: 200 `{"token": T}` with `Authorization: Bearer T`, else 401 `{"code": 401, …}`.
/// - `GET /typed?contentType=T`: 200 `{}` with `Content-Type: T`.
/// - `GET /hold/{id}`: 200, then one byte every 50 ms for ten minutes; a client that closes the connection is
///   recorded, see ``TestServer/waitForDisconnect(of:)``. While a test runs, only the client ends it.
/// - `GET /silent/{id}`: no answer at all, not even a status line, until the client closes the connection (recorded
///   as for `/hold`) or five minutes pass (then 504): while a test runs, only the client's own timeout ends it.
/// - `GET /flood/{id}`: 200, then 64 KiB chunks of `x` without a length and without a pause, until the client
///   closes the connection (recorded as for `/hold`) or five minutes pass: while a test runs, only a client that
///   stops reading (at its body size limit, say) ends it.
/// - `GET /gather/{key}?count=N`: held until N requests for `key` are held at once, then each answers 200
///   `{"gathered": N}`; after a minute without that, 504. Proves that N requests were in flight together.
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
            guard await state.gather(key, count: count, within: HangGuard.duration) else {
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
                        for _ in 0..<12_000 {
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
        router.get("/silent/:id") { request, context in
            let id = context.parameters.get("id") ?? ""
            do {
                // The wait ends with a `CancellationError` as soon as the client closes its side of the connection.
                try await request.body.consumeWithCancellationOnInboundClose { _ in
                    try await Task.sleep(for: .seconds(5 * 60))
                }
            } catch {
                await state.recordDisconnect(id)
                throw error
            }
            return TestRoutes.json(["code": .number(504), "message": .string("silent")], status: .gatewayTimeout)
        }
        router.get("/flood/:id") { _, context in
            let id = context.parameters.get("id") ?? ""
            return Response(
                status: .ok,
                headers: [.contentType: "application/octet-stream"],
                body: ResponseBody { writer in
                    let chunk = ByteBuffer(repeating: UInt8(ascii: "x"), count: 1 << 16)
                    let end = ContinuousClock.now + .seconds(5 * 60)
                    do {
                        while ContinuousClock.now < end {
                            try await writer.write(chunk)
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

    /// `X-Retry-After-From`: the route's "now" that an HTTP-date `Retry-After` counts from.
    static let retryAfterFrom = HTTPField.Name("X-Retry-After-From") ?? .date

    /// `Retry-After` in seconds, or as an HTTP-date `X` seconds from now, with that "now" in ``retryAfterFrom``.
    private static func addRetryAfter(from request: Request, to response: inout Response) {
        if let seconds = request.uri.queryParameters["retryAfter"] {
            response.headers[.retryAfter] = String(seconds)
        }
        if let offset = request.uri.queryParameters["retryAfterDate"].flatMap({ Double(String($0)) }) {
            let now = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
            response.headers[.retryAfter] = httpDate(now.addingTimeInterval(offset))
            response.headers[retryAfterFrom] = httpDate(now)
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
