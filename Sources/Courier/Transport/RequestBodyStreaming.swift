import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A transport that sends a body as it is produced (``TransportOptions/requestBody``), pausing the producer while
/// the connection cannot take more.
package protocol RequestBodyStreaming: Transport {}

/// A transport in front of one that cannot send a produced body: reads the body first and hands it on whole, in
/// memory up to ``inMemoryLimit`` bytes and past that in a temporary file, which the transport reads in chunks and
/// which is deleted when the sending ends. URLSession is such a transport (on Linux a body stream would block the
/// one queue all of FoundationNetworking's transfers share), and so are the mocks.
struct BodyReadingTransport: Transport {
    let next: any Transport
    static let inMemoryLimit = 1 << 20

    func send(
        _ request: URLRequest,
        options: TransportOptions,
        completion: @escaping @Sendable (Result<TransportResponse, any Error>) -> Void
    ) -> @Sendable () -> Void {
        guard let body = options.requestBody else {
            return next.send(request, options: options, completion: completion)
        }
        // The sending's cancel action once `next` has it; the outcome is delivered once, whoever comes first.
        let state = Locked(OnceState<CancelAction>())
        let reading = Task {
            let whole: WholeBody
            do {
                whole = try await Self.read(body)
            } catch {
                let failure = Task.isCancelled ? URLError(.cancelled) : error
                if state.withLock({ $0.deliver() }) { completion(.failure(failure)) }
                return
            }
            // Cancelled while the body was being read: nothing is sent.
            if state.withLock({ $0.isOver }) {
                whole.remove()
                return
            }
            var request = request
            var options = options
            options.requestBody = nil
            switch whole {
            case .memory(let data): request.httpBody = data
            case .file(let url): options.bodyFile = url
            }
            let cancel = next.send(request, options: options) { answer in
                whole.remove()
                if state.withLock({ $0.deliver() }) { completion(answer) }
            }
            // Cancelled while `next` was being started: it is told now.
            if case .cancelNow(let cancel) = state.withLock({ $0.attach(cancel) }) { cancel() }
        }
        return {
            reading.cancel()
            let stop = state.withLock { $0.stop() }
            if stop.deliver { completion(.failure(URLError(.cancelled))) }
            stop.handle?()
        }
    }

    /// A body read whole, and where it is.
    private enum WholeBody: Sendable {
        case memory(Data)
        case file(URL)

        func remove() {
            if case .file(let url) = self { try? FileManager.default.removeItem(at: url) }
        }
    }

    private static func read(_ body: RequestBodyStream.Reader) async throws -> WholeBody {
        var data = Data()
        while let part = try await body.next() {
            try Task.checkCancellation()
            data.append(part)
            if data.count > inMemoryLimit { return .file(try await spool(data, andTheRestOf: body)) }
        }
        return .memory(data)
    }

    /// Writes `start` and the rest of the body to a new temporary file; deletes it if that fails.
    private static func spool(_ start: Data, andTheRestOf body: RequestBodyStream.Reader) async throws -> URL {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("courier-body-\(UUID().uuidString)")
        do {
            guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
                throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path])
            }
            let file = try FileHandle(forWritingTo: url)
            defer { try? file.close() }
            try file.write(contentsOf: start)
            while let part = try await body.next() {
                try Task.checkCancellation()
                try file.write(contentsOf: part)
            }
            return url
        } catch {
            try? FileManager.default.removeItem(at: url)
            throw error
        }
    }
}
