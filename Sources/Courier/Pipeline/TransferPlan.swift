import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What a request asks of the pipeline beyond an ordinary one: where its response body goes, who hears of its
/// progress, and how its timeouts count.
struct TransferPlan: Sendable {
    enum Destination: Sendable {
        /// Collected in memory, as for an ordinary request: for progress reports.
        case memory
        /// Written to a file (see ``FileDownload``).
        case file(FileDownload)
        /// Handed to the caller part by part as it arrives, from the head on: a 2xx body, or with `everyStatus`
        /// the body of any status (the raw exchange).
        case stream(everyStatus: Bool)
    }

    let destination: Destination
    let uploadMeter: ProgressMeter?
    let downloadMeter: ProgressMeter?
    /// Added to the request before the plugins see it, e.g. `Last-Event-ID`.
    var headers: [String: String] = [:]
    /// For a file or a stream: the longest wait for the head, and between two parts of the body.
    var idleTimeout: Duration?
    /// A request body produced while it is sent, read anew (or replayed) by each sending.
    var requestBody: RequestBodyStream?

    init(
        destination: Destination,
        progress: (@Sendable (TransferProgress) -> Void)?,
        headers: [String: String] = [:],
        idleTimeout: Duration? = nil
    ) {
        self.destination = destination
        uploadMeter = progress.map { ProgressMeter(.upload, report: $0) }
        downloadMeter = progress.map { ProgressMeter(.download, report: $0) }
        self.headers = headers
        self.idleTimeout = idleTimeout
    }

    /// Whether the body of an answer with `statusCode` goes where ``destination`` says; any other is collected in
    /// memory, to be decoded as the endpoint's client error.
    func takesBody(ofStatus statusCode: Int) -> Bool {
        if case .stream(everyStatus: true) = destination { return true }
        return (200..<300).contains(statusCode)
    }

    /// Ends the progress reports, once the request's outcome is known.
    func end(succeeded: Bool) {
        uploadMeter?.end(succeeded: succeeded)
        downloadMeter?.end(succeeded: succeeded)
    }
}
