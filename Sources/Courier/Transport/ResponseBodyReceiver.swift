import Foundation

/// Where a transport hands a response body piece by piece, instead of collecting it, when
/// ``TransportOptions/responseBodyReceiver`` is set: downloads to a file, streamed responses and progress reports
/// are built on it.
///
/// The transport calls ``receiveHead(statusCode:headerFields:)`` once, when the status and headers have arrived,
/// then ``receive(_:readMore:)`` for each part of the body as it arrives (after any decompression), in order and
/// never two at once. When either throws, the transport stops the exchange and completes with that error. When the
/// body has ended, it completes with a ``TransportResponse`` whose body is empty: the receiver has had it all. The
/// ``TransportOptions/maximumResponseBodySize`` does not apply then; the receiver keeps what it chooses to keep.
public protocol ResponseBodyReceiver: AnyObject, Sendable {
    /// The status and header fields (a repeated field's values joined with commas), before any part of the body.
    func receiveHead(statusCode: Int, headerFields: [String: String]) throws

    /// A part of the body.
    /// - Parameters:
    ///   - part: The bytes, in the order they arrived.
    ///   - readMore: Called by the receiver once it is ready for the next part, so that a slow reader slows the
    ///     transfer instead of filling memory. A transport that cannot pause its connection (URLSession) goes on
    ///     without waiting for it; one that can (AsyncHTTPClient) reads the next part only after it.
    func receive(_ part: Data, readMore: @escaping @Sendable () -> Void) throws
}
