import Foundation
import HTTPTypes
import Hummingbird

/// A resource that answers with the caching fields a test asks for, and answers a matching validator with `304`.
///
/// - `GET /cached/{key}?cc=C&etag=1&lastModified=S&expires=E&vary=F&age=A&status=N`: status N (200 by default)
///   with `{"key": key, "version": v, "varied": value}` (v: the resource's version, 1 until changed; value: the
///   request's field F, or `""`), and `Cache-Control: C`, `ETag: "v<v>"`, `Last-Modified` S seconds before the version was made, `Expires`
///   E seconds from now (or E itself when it is not a number), `Vary: F`, `Age: A`, each only when asked. A request
///   whose `If-None-Match` names the current `ETag`, or whose `If-Modified-Since` is not before `Last-Modified`, gets
///   `304` with the same caching fields and no body. While the resource is down, every `GET` answers its outage
///   status.
/// - `POST|PUT|PATCH|DELETE /cached/{key}?location=L&status=N`: changes the resource (its version goes up) and
///   answers N (204 by default), with `Location: L` when asked.
///   With `gather=N` (on `GET` too), the answer waits until N requests for `/gather/cached-{key}` and this resource are held (a
///   test's own `GET /gather/cached-{key}?count=2` lets one go).
/// - `POST /change/{key}`: changes the resource without a request to its URL, as another client would.
/// - `POST /outage/{key}?status=N`: the resource answers N from now on; without `status`, it is up again.
enum CachingRoutes {
    static func add(to router: Router<TestRequestContext>, state: RouteState) {
        router.get("/cached/:key") { request, context in
            let key = context.parameters.get("key") ?? ""
            let query = request.uri.queryParameters
            if let count = query["gather"].flatMap({ Int(String($0)) }) {
                _ = await state.gather("cached-\(key)", count: count, within: HangGuard.duration)
            }
            let resource = await state.cachedResource(key)
            if let outage = resource.outage {
                return TestRoutes.json(
                    ["code": .number(outage), "message": .string("down")],
                    status: HTTPResponse.Status(code: outage)
                )
            }
            var fields = HTTPFields()
            if let value = query["cc"] { fields[.cacheControl] = String(value) }
            let etag = "\"v\(resource.version)\""
            if query["etag"] == "1" { fields[.eTag] = etag }
            let now = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
            let lastModified = query["lastModified"].flatMap { Double(String($0)) }.map {
                resource.madeAt.addingTimeInterval(-$0)
            }
            if let lastModified { fields[.lastModified] = ResilienceRoutes.httpDate(lastModified) }
            if let expires = query["expires"] {
                fields[.expires] =
                    Double(String(expires)).map { ResilienceRoutes.httpDate(now.addingTimeInterval($0)) }
                    ?? String(expires)
            }
            let varied = query["vary"].flatMap { HTTPField.Name(String($0)) }
            if let varied { fields[.vary] = varied.rawName }
            if let age = query["age"] { fields[.age] = String(age) }
            let modifiedSince = request.headers[.ifModifiedSince].flatMap(HttpDateParsing.parse)
            let unchangedSince = lastModified.flatMap { lastModified in modifiedSince.map { $0 >= lastModified } }
            if (query["etag"] == "1" && request.headers[.ifNoneMatch] == etag) || unchangedSince == true {
                return Response(status: .notModified, headers: fields)
            }
            var response = TestRoutes.json(
                [
                    "key": .string(key), "version": .number(resource.version),
                    "varied": .string(varied.flatMap { request.headers[$0] } ?? ""),
                ],
                status: HTTPResponse.Status(code: query["status"].flatMap { Int(String($0)) } ?? 200)
            )
            response.headers.append(contentsOf: fields)
            return response
        }
        let change: @Sendable (Request, TestRequestContext) async throws -> Response = { request, context in
            let key = context.parameters.get("key") ?? ""
            if let count = request.uri.queryParameters["gather"].flatMap({ Int(String($0)) }) {
                _ = await state.gather("cached-\(key)", count: count, within: HangGuard.duration)
            }
            await state.changeCachedResource(key)
            let status = request.uri.queryParameters["status"].flatMap { Int(String($0)) } ?? 204
            var response = Response(status: HTTPResponse.Status(code: status))
            if let location = request.uri.queryParameters["location"] {
                response.headers[.location] = String(location)
            }
            return response
        }
        for method in [HTTPRequest.Method.post, .put, .patch, .delete] {
            router.on("/cached/:key", method: method, use: change)
        }
        router.post("/change/:key") { _, context in
            await state.changeCachedResource(context.parameters.get("key") ?? "")
            return Response(status: .noContent)
        }
        router.post("/outage/:key") { request, context in
            let status = request.uri.queryParameters["status"].flatMap { Int(String($0)) }
            await state.setCachedOutage(context.parameters.get("key") ?? "", status: status)
            return Response(status: .noContent)
        }
    }
}

/// `If-Modified-Since` as the route reads it: IMF-fixdate only, which is what clients send.
enum HttpDateParsing {
    static func parse(_ text: String) -> Date? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        return formatter.date(from: text)
    }
}
