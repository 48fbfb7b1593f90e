import Foundation
import Hummingbird

/// The routes of ``TestServer``.
enum TestRoutes {
    typealias Context = TestRequestContext

    static func router(log: RequestLog, state: RouteState) -> Router<Context> {
        let router = Router(context: Context.self)
        router.add(middleware: RecordingMiddleware(log: log))
        let echoMethods: [HTTPRequest.Method] =
            [.get, .head, .post, .put, .patch, .delete, .options]
            + (HTTPRequest.Method("PROPFIND").map { [$0] } ?? [])
        for method in echoMethods {
            router.on("/echo", method: method) { request, _ in try await echo(request) }
            router.on("/echo/**", method: method) { request, _ in try await echo(request) }
        }
        router.get("/status/:code") { _, context in
            let status = try status(context)
            return json(["code": .number(status.code), "message": .string("status \(status.code)")], status: status)
        }
        router.get("/plain/:code") { _, context in
            Response(
                status: try status(context),
                headers: [.contentType: "text/plain; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(string: "plain text, not JSON"))
            )
        }
        router.get("/empty/:code") { _, context in Response(status: try status(context)) }
        router.get("/slow") { request, _ in
            let milliseconds = Int(request.uri.queryParameters["ms"] ?? "") ?? 1_000
            try await Task.sleep(for: .milliseconds(milliseconds))
            return json(["sleptMilliseconds": .number(milliseconds)])
        }
        router.get("/drop") { _, _ in
            Response(
                status: .ok,
                headers: [.contentType: "application/json"],
                body: ResponseBody(contentLength: 1_000) { writer in
                    try await writer.write(ByteBuffer(string: "{\"part"))
                    throw CancellationError()
                }
            )
        }
        router.get("/challenge") { _, _ in
            var response = json(["code": .number(401), "message": .string("Unauthorized")], status: .unauthorized)
            response.headers[.wwwAuthenticate] = "Basic realm=\"courier\""
            return response
        }
        // Any method: a 307 or 308 keeps it and its body, a 303 turns it into a GET.
        for method in [HTTPRequest.Method.get, .post, .put, .patch, .delete] {
            router.on("/redirect", method: method) { request, _ in
                var target = request.uri.queryParameters["to"].map(String.init) ?? "/echo"
                if target == "loop" { target = request.uri.description }
                let code = Int(request.uri.queryParameters["status"] ?? "") ?? 302
                return Response(status: .init(code: code), headers: [.location: target])
            }
        }
        // `N` redirects one after the other, then the echo of the last request.
        router.get("/redirect-chain/:remaining") { request, context in
            let remaining = Int(context.parameters.get("remaining") ?? "") ?? 0
            guard remaining > 0 else { return try await echo(request) }
            return Response(status: .found, headers: [.location: "/redirect-chain/\(remaining - 1)"])
        }
        router.get("/set-cookie") { request, _ in
            var response = json(["set": .string(request.uri.query ?? "")])
            response.headers[values: .setCookie] = request.uri.queryParameters.map { "\($0)=\($1); Path=/" }
            return response
        }
        TodoRoutes.add(to: router)
        GitHubRoutes.add(to: router)
        SinkRoute.add(to: router)
        StreamingRoutes.add(to: router)
        TransferRoutes.add(to: router)
        ResilienceRoutes.add(to: router, state: state)
        GzipRoute.add(to: router)
        CachingRoutes.add(to: router, state: state)
        return router
    }

    static func echo(_ request: Request) async throws -> Response {
        let received = try await ReceivedRequest(request)
        let data = try JSONEncoder().encode(received)
        return Response(
            status: .ok,
            headers: [.contentType: "application/json"],
            body: .init(byteBuffer: ByteBuffer(bytes: data))
        )
    }

    static func status(_ context: Context) throws -> HTTPResponse.Status {
        guard let code = context.parameters.get("code", as: Int.self), (100...999).contains(code) else {
            throw HTTPError(.badRequest, message: "the status code must be a number from 100 to 999")
        }
        return .init(code: code)
    }

    static func json(_ object: [String: JSONValue], status: HTTPResponse.Status = .ok) -> Response {
        let data = (try? JSONEncoder().encode(object)) ?? Data()
        return Response(
            status: status,
            headers: [.contentType: "application/json"],
            body: .init(byteBuffer: ByteBuffer(bytes: data))
        )
    }
}

/// A JSON scalar for the small bodies the routes build.
enum JSONValue: Encodable {
    case string(String)
    case number(Int)

    func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .string(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        }
    }
}

extension ReceivedRequest {
    /// The largest request body the test server accepts.
    static let maximumBodySize = 64 * 1024 * 1024

    /// Reads the request line, headers and the whole body as they arrived.
    init(_ request: Request) async throws {
        var request = request
        let body = try await request.collectBody(upTo: ReceivedRequest.maximumBodySize)
        self.init(headOf: request, body: Data(body.readableBytesView))
    }

    /// The request line and headers, with `body` as the body.
    init(headOf request: Request, body: Data = Data()) {
        let target = request.head.path ?? "/"
        let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        self.init(
            method: request.method.rawValue,
            path: String(parts[0]),
            query: parts.count > 1 ? String(parts[1]) : nil,
            headers: request.headers.map { [$0.name.rawName, $0.value] },
            body: body
        )
    }
}

/// Records every request before it is routed, so tests can assert what arrived on any route.
struct RecordingMiddleware: RouterMiddleware {
    typealias Context = TestRequestContext
    let log: RequestLog

    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws
        -> Response
    {
        // The sink streams bodies larger than the recorder would hold, and the relay sends each part back before
        // the next arrives; both are recorded without their body. `/silent` watches its request's stream for the
        // client leaving, which only an untouched body can do; a GET has none.
        if ["/sink", "/relay"].contains(request.uri.path) || request.uri.path.hasPrefix("/silent/") {
            await log.record(ReceivedRequest(headOf: request), clientPort: context.remoteAddress?.port)
            return try await next(request, context)
        }
        var request = request
        _ = try await request.collectBody(upTo: ReceivedRequest.maximumBodySize)
        await log.record(try await ReceivedRequest(request), clientPort: context.remoteAddress?.port)
        return try await next(request, context)
    }
}
