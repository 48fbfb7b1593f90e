extension ApiProvider {
    /// Server-Sent Events from `endpoint`, read as they arrive: connects when first read, and with a
    /// `reconnection` policy connects again with `Last-Event-ID` after the stream ends or its connection is lost.
    ///
    /// The request asks for `text/event-stream` and goes through the plugins as any other. Each event's
    /// ``ServerSentEvent/data`` decodes with ``ServerSentEvent/decodeData(as:using:)``. See ``ServerSentEvents`` for
    /// when the sequence ends or throws.
    ///
    /// The endpoint's ``Endpoint/timeout`` bounds each connection whole, so an event endpoint usually has none, and
    /// an ``Endpoint/idleTimeout`` to notice a connection gone silent.
    public func events(
        on endpoint: EndpointType,
        reconnection: EventStreamReconnection? = nil
    ) -> ServerSentEvents<EndpointType> {
        ServerSentEvents(provider: self, endpoint: endpoint, reconnection: reconnection)
    }
}
