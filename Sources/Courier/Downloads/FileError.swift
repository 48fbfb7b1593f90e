import Foundation

/// A download's file could not be written or moved into place; the pipeline reports it as
/// ``ApiError/fileError(url:error:)``.
struct FileError: Error, CustomStringConvertible {
    let url: URL
    let error: Error
    var description: String { "\(url.path): \(error)" }
}
