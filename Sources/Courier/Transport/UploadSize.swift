import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// How many bytes a request body has, for upload progress: its own body's, or its file's; `nil` without a body (a
/// body stream's length is not known).
package func uploadSize(of request: URLRequest, bodyFile: URL?) -> Int64? {
    if let body = request.httpBody { return Int64(body.count) }
    guard let bodyFile else { return nil }
    return fileSize(at: bodyFile)
}

/// The size of the file at `url`, or `nil` when it cannot be read.
package func fileSize(at url: URL) -> Int64? {
    (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber)?.int64Value
}
