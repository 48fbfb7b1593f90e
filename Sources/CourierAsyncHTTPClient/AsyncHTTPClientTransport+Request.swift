#if AsyncHTTPClient
import AsyncHTTPClient
import Courier
import Foundation
import NIOCore
import NIOHTTP1

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A Courier request as the client's: its fields, its body (in memory, a file or produced while it is sent) and the
/// event loop it runs on.
extension AsyncHTTPClientTransport {
    /// A streamed body's task runs on the loop its body completes on, so that ``RequestBodyEnd`` can order its wait
    /// after the client's own; any other on whichever loop the client picks.
    func preference(for bodyEnd: RequestBodyEnd?) -> HTTPClient.EventLoopPreference {
        bodyEnd.map { .delegate(on: $0.eventLoop) } ?? .indifferent
    }

    /// The client's request, and the end of its body if that is streamed.
    func clientRequest(
        for request: URLRequest,
        bodyFile: URL?,
        produced: ProducedBody?,
        reportingUpload: Bool
    ) throws -> (HTTPClient.Request, RequestBodyEnd?) {
        guard let url = request.url else { throw URLError(.badURL) }
        let fields = request.allHTTPHeaderFields ?? [:]
        var headers = HTTPHeaders()
        headers.reserveCapacity(fields.count)
        for (name, value) in fields {
            headers.add(name: name, value: value)
        }
        let (body, bodyEnd) =
            try produced.map { RequestBodyEnd.streamed(length: $0.length, by: client, $0.write) }
            ?? body(of: request, file: bodyFile, sliced: reportingUpload)
        let outgoing = try HTTPClient.Request(
            url: url,
            method: HTTPMethod(rawValue: request.httpMethod ?? "GET"),
            headers: headers,
            body: body
        )
        return (outgoing, bodyEnd)
    }

    /// The request's own body, or the file streamed in chunks with its length announced.
    /// - Parameter sliced: Whether a body in memory goes out in parts, so that its upload progress is reported as
    ///   it is sent rather than once when it all has been.
    func body(of request: URLRequest, file: URL?, sliced: Bool) throws -> (HTTPClient.Body?, RequestBodyEnd?) {
        if let data = request.httpBody, sliced, data.count > FileChunks.progressSliceSize {
            return RequestBodyEnd.streamed(length: Int64(data.count), by: client) { writer, eventLoop in
                FileChunks.write(data, inSlicesTo: writer, on: eventLoop)
            }
        }
        if let data = request.httpBody { return (.byteBuffer(ByteBuffer(bytes: data)), nil) }
        if let stream = request.httpBodyStream {
            return (.byteBuffer(ByteBuffer(bytes: try stream.readAll())), nil)
        }
        guard let file else { return (nil, nil) }
        let size = try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int ?? 0
        return RequestBodyEnd.streamed(length: Int64(size), by: client) { writer, eventLoop in
            FileChunks(url: file).write(size: size, to: writer, on: eventLoop)
        }
    }
}
#endif
