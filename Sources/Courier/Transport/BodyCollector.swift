import Foundation

/// A response body collected in memory under a size limit: the one rule every collector follows (the URLSession
/// delegate, AsyncHTTPClient's delegates, a transfer's receiver). A length announced over the limit is refused
/// before a byte is read; otherwise the body is refused as soon as it would pass the limit, counted as delivered
/// (after any decompression), and the bytes past it are never kept.
package struct BodyCollector: Sendable {
    /// The most bytes kept.
    package let limit: Int
    /// What has arrived so far.
    package private(set) var body = Data()

    package init(limit: Int) {
        self.limit = limit
    }

    /// Refuses an announced length over the limit, and makes room for one under it at once: growing a large body
    /// by doubling would hold up to twice its size. At most 64 MiB is reserved ahead of the bytes, so that a server
    /// announcing a length it never sends cannot make a provider with a very high limit allocate it.
    /// - Parameter isHead: An answer to HEAD, which announces the length of a body it does not have.
    package mutating func expect(announced length: Int64?, isHead: Bool = false) throws {
        guard let length, length > 0, !isHead else { return }
        try Self.check(announced: length, limit: limit)
        body.reserveCapacity(Int(min(length, Self.largestReservation)))
    }

    private static let largestReservation: Int64 = 64 << 20

    /// Adds `part`, or throws ``ResponseBodyTooLargeError`` (keeping nothing of it) when it would pass the limit.
    package mutating func append(_ part: Data) throws {
        try Self.check(holding: body.count, adding: part.count, limit: limit)
        body.append(part)
    }

    /// Adds `part`'s bytes, or throws ``ResponseBodyTooLargeError`` when they would pass the limit.
    package mutating func append(contentsOf part: UnsafeRawBufferPointer) throws {
        try Self.check(holding: body.count, adding: part.count, limit: limit)
        body.append(contentsOf: part)
    }

    /// The rule for an announced length, for a collector that keeps its bytes in a buffer of its own.
    /// - Parameter room: What that buffer can hold, when it is less than `limit` (a `ByteBuffer`: 4 GiB); the
    ///   error still names `limit`.
    package static func check(announced length: Int64, limit: Int, room: Int? = nil) throws {
        if length > Int64(min(limit, room ?? limit)) { throw ResponseBodyTooLargeError(limit: limit) }
    }

    /// The rule for a part arriving, for a collector that keeps its bytes in a buffer of its own.
    package static func check(holding count: Int, adding more: Int, limit: Int, room: Int? = nil) throws {
        if more > min(limit, room ?? limit) - count { throw ResponseBodyTooLargeError(limit: limit) }
    }
}
