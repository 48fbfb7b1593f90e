/// How ``ApiProvider/download(on:to:options:progress:)`` treats a download.
public struct DownloadOptions: Sendable {
    /// Keep what arrived of a download that failed, was cancelled or timed out, and continue it from there the
    /// next time the same URL is downloaded to the same destination, with `Range` and `If-Range`.
    ///
    /// Only an answer with a strong `ETag` or a `Last-Modified` can be continued: the next request then asks for
    /// the rest only if the file on the server is still that one, and a server that answers the whole file
    /// instead (`200`), because it changed or does not serve ranges, starts the file again. Without either, what
    /// arrived is deleted as for a download that is not resumable. `false` by default: a failed download then
    /// leaves nothing behind.
    public var resumable: Bool

    /// The largest file accepted, in bytes; a larger one fails with ``ApiError/responseBodyTooLarge(limit:)`` as
    /// soon as it is announced or reached, and nothing is kept of it. 8 GiB by default; the endpoint's
    /// ``Endpoint/maximumResponseBodySize`` still limits the body of an answer that is not 2xx, which is kept in
    /// memory to decode the client error.
    public var maximumSize: Int64

    /// 8 GiB.
    public static let defaultMaximumSize: Int64 = 8 << 30

    /// Creates options.
    public init(resumable: Bool = false, maximumSize: Int64 = Self.defaultMaximumSize) {
        self.resumable = resumable
        self.maximumSize = maximumSize
    }
}
