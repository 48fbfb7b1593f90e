/// How long the phases of one sending took before its answer began, as a transport measured them: each a duration
/// of its own, `nil` for a phase that did not happen (no name lookup for an IP address, no connection for a request
/// sent on a kept-alive one, no TLS over plain HTTP).
///
/// `CurlTransport` reports them from libcurl's own clock; URLSession and AsyncHTTPClient do not expose them.
/// ``TracingPlugin`` turns them into events of the sending's span, ``MetricsPlugin`` records the name lookup as
/// OpenTelemetry's `dns.lookup.duration`. A transport measures them only when a provider has such a plugin
/// (``TransportOptions/measuresTimings``).
///
/// A name lookup is timed as libcurl timed it: a name its DNS cache held (a minute by default) takes microseconds.
/// Through a proxy, the lookup and the connection are those of the proxy. After a redirect that the transport
/// followed, only ``firstByte`` is told, from the start of the first hop.
public struct SendingTimings: Sendable, Hashable {
    /// Resolving the server's name.
    public var nameLookup: Duration?
    /// Opening the TCP connection, after the name lookup.
    public var connect: Duration?
    /// The TLS handshake, after the TCP connection.
    public var tlsHandshake: Duration?
    /// From the start of the sending to the first byte of the answer, all phases above included.
    public var firstByte: Duration?
    /// Whether the request went out on a connection opened before it, or `nil` when that is not known (after a
    /// redirect that the transport followed, whose hops may have used either).
    public var reusedConnection: Bool?

    /// Creates timings.
    /// - Parameters:
    ///   - nameLookup: Resolving the server's name, or `nil` when there was no lookup.
    ///   - connect: Opening the TCP connection, or `nil` when a kept-alive one was used.
    ///   - tlsHandshake: The TLS handshake, or `nil` when there was none.
    ///   - firstByte: From the start of the sending to the answer's first byte.
    ///   - reusedConnection: Whether a connection opened before was used, or `nil` when not known.
    public init(
        nameLookup: Duration? = nil,
        connect: Duration? = nil,
        tlsHandshake: Duration? = nil,
        firstByte: Duration? = nil,
        reusedConnection: Bool? = nil
    ) {
        self.nameLookup = nameLookup
        self.connect = connect
        self.tlsHandshake = tlsHandshake
        self.firstByte = firstByte
        self.reusedConnection = reusedConnection
    }
}
