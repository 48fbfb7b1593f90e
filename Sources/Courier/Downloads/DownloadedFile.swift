import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A download that arrived whole and was moved into place.
public struct DownloadedFile: Sendable {
    /// The destination, now holding the whole body.
    public let fileUrl: URL
    /// The response of the last sending (`206 Partial Content` for a resumed download).
    public let response: HTTPURLResponse
    /// The file's size.
    public let byteCount: Int64
    /// How many bytes were kept from an interrupted download and not downloaded again; 0 when nothing was.
    public let resumedFrom: Int64
}
