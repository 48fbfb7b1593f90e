import Foundation
import HTTPTypes
import Hummingbird

/// Files generated as they are sent, never stored, with ranges and validators, and event streams: for downloads,
/// resuming and Server-Sent Events.
///
/// - `GET /file?size=N[&etag=E][&lastModified=D][&ranges=false][&cutAt=M][&chunk=C]`, each also as an
///   `X-File-<name>` header: `N` bytes of ``TestServer/generatedFileByte(at:)``, `Content-Length` announced. With `etag` (sent quoted) or `lastModified` as the validator, a
///   `Range: bytes=S-` request is answered `206` from `S`, unless `If-Range` names another validator or
///   `ranges=false`, which give the whole file (`200`). `cutAt` closes the connection once the file's byte `M` would
///   be next, if the answer started before it. A range past the end is answered `416`.
/// - `GET /events/{key}?total=N&perConnection=K[&retry=ms][&idleMs=T]`: a `text/event-stream` of events `1…N`
///   (`id: i`, `data: {"number": i}`), `K` per connection from the one after `Last-Event-ID`; after the last,
///   `204`. `retry` sends a `retry:` field first; `idleMs` waits that long before closing.
/// - `GET /event-stream?body=B64`: the bytes given, base64-encoded, as `text/event-stream`.
enum TransferRoutes {
    /// The byte at `offset` of every generated file: not a repeating short pattern, so that a misplaced range shows
    /// in a checksum.
    static func fileByte(at offset: Int64) -> UInt8 {
        let mixed = (offset &* 2_654_435_761) ^ (offset >> 13)
        return UInt8(truncatingIfNeeded: mixed >> 7)
    }

    static func add(to router: Router<TestRequestContext>) {
        router.get("/file") { request, _ in file(request) }
        router.get("/events/{key}") { request, _ in events(request) }
        router.get("/event-stream") { request, _ in
            let encoded = request.uri.queryParameters["body"].map(String.init) ?? ""
            let body = Data(base64Encoded: encoded) ?? Data()
            return Response(
                status: .ok,
                headers: [.contentType: "text/event-stream"],
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: body))
            )
        }
    }

    private static func file(_ request: Request) -> Response {
        // A parameter also comes as an `X-File-<name>` header, so that a client can change how the same URL is
        // served, as a server's file changes under a URL.
        let option: (String) -> String? = { name in
            if let header = HTTPField.Name("X-File-\(name)"), let value = request.headers[header] { return value }
            return request.uri.queryParameters[Substring(name)].map(String.init)
        }
        let size = Int64(option("size") ?? "") ?? 0
        let etag = option("etag").map { "\"\($0)\"" }
        let lastModified = option("lastModified")
        let cutAt = Int64(option("cutAt") ?? "")
        let chunkSize = max(1, Int(option("chunk") ?? "") ?? 64 * 1024)
        var headers: HTTPFields = [.contentType: "application/octet-stream"]
        if let etag { headers[.eTag] = etag }
        if let lastModified { headers[.lastModified] = lastModified }
        var start: Int64 = 0
        var status = HTTPResponse.Status.ok
        if option("ranges") != "false", let range = request.headers[.range], range.hasPrefix("bytes="),
            let from = Int64(range.dropFirst("bytes=".count).split(separator: "-").first ?? "")
        {
            let ifRange = request.headers[.ifRange]
            let validatorMatches = ifRange == nil || ifRange == etag || (etag == nil && ifRange == lastModified)
            if validatorMatches && (etag != nil || lastModified != nil || ifRange == nil) {
                guard from < size else {
                    headers[.contentRange] = "bytes */\(size)"
                    return Response(status: .rangeNotSatisfiable, headers: headers)
                }
                start = from
                status = .partialContent
                headers[.contentRange] = "bytes \(from)-\(size - 1)/\(size)"
            }
        }
        let count = size - start
        let from = start
        return Response(
            status: status,
            headers: headers,
            body: ResponseBody(contentLength: Int(count)) { writer in
                var offset = from
                var chunk = [UInt8](repeating: 0, count: chunkSize)
                while offset < size {
                    if let cutAt, from < cutAt, offset >= cutAt { throw CancellationError() }
                    var length = Int(min(Int64(chunkSize), size - offset))
                    if let cutAt, from < cutAt, offset < cutAt { length = Int(min(Int64(length), cutAt - offset)) }
                    for index in 0..<length { chunk[index] = fileByte(at: offset + Int64(index)) }
                    try await writer.write(ByteBuffer(bytes: chunk[..<length]))
                    offset += Int64(length)
                }
                try await writer.finish(nil)
            }
        )
    }

    private static func events(_ request: Request) -> Response {
        let parameters = request.uri.queryParameters
        let total = Int(parameters["total"] ?? "") ?? 3
        let perConnection = Int(parameters["perConnection"] ?? "") ?? total
        let retry = parameters["retry"].map(String.init)
        let idle = Int(parameters["idleMs"] ?? "") ?? 0
        let last = request.headers[HTTPField.Name("Last-Event-ID") ?? .accept].flatMap { Int($0) } ?? 0
        guard last < total else { return Response(status: .noContent) }
        return Response(
            status: .ok,
            headers: [.contentType: "text/event-stream", .cacheControl: "no-cache"],
            body: ResponseBody { writer in
                if let retry { try await writer.write(ByteBuffer(string: "retry: \(retry)\n\n")) }
                for number in (last + 1)...min(total, last + perConnection) {
                    try await writer.write(ByteBuffer(string: "id: \(number)\ndata: {\"number\": \(number)}\n\n"))
                }
                if idle > 0 { try await Task.sleep(for: .milliseconds(idle)) }
                try await writer.finish(nil)
            }
        )
    }
}
