/// How long the phases of one sending took before its answer began, as a transport measured them: each a duration
/// of its own, `nil` for a phase that did not happen (no name lookup for an IP address, no connection for a request
/// sent on a kept-alive one, no TLS over plain HTTP).
///
/// `CurlTransport` reports them from libcurl's own clock; URLSession and AsyncHTTPClient do not expose them.
/// ``TracingPlugin`` turns them into events of the sending's span, ``MetricsPlugin`` records the name lookup as
/// OpenTelemetry's `dns.lookup.duration`. A transport measures them only when a provider has such a plugin
/// (``TransportOptions/measuresTimings``).
public struct SendingTimings: Sendable, Hashable {
    /// Resolving the server's name.
    public var nameLookup: Duration?
    /// Opening the TCP connection, after the name lookup.
    public var connect: Duration?
    /// The TLS handshake, after the TCP connection.
    public var tlsHandshake: Duration?
    /// From the start of the sending to the first byte of the answer, all phases above included.
    public var firstByte: Duration?

    /// Creates timings.
    /// - Parameters:
    ///   - nameLookup: Resolving the server's name, or `nil` when there was no lookup.
    ///   - connect: Opening the TCP connection, or `nil` when a kept-alive one was used.
    ///   - tlsHandshake: The TLS handshake, or `nil` when there was none.
    ///   - firstByte: From the start of the sending to the answer's first byte.
    public init(
        nameLookup: Duration? = nil,
        connect: Duration? = nil,
        tlsHandshake: Duration? = nil,
        firstByte: Duration? = nil
    ) {
        self.nameLookup = nameLookup
        self.connect = connect
        self.tlsHandshake = tlsHandshake
        self.firstByte = firstByte
    }

    /// Whether the request went out on a connection opened before it.
    public var reusedConnection: Bool { connect == nil }
}
