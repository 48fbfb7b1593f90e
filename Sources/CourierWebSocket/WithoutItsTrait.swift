#if !WebSocket
// This product's code is compiled only where the package trait "WebSocket" is enabled: the trait is what brings in
// swift-websocket and SwiftNIO, for the users who ask for them. Named without it, the door says what to add.
import Courier

extension ApiProvider {
    /// Unavailable: WebSocket endpoints need the `WebSocket` trait of the Courier package.
    @available(
        *,
        unavailable,
        message: "CourierWebSocket needs its trait: .package(url: ..., from: ..., traits: [\"WebSocket\"])"
    )
    public func webSocket<Incoming, Outgoing>(
        on endpoint: EndpointType,
        receiving: Incoming.Type = Incoming.self,
        sending: Outgoing.Type = Outgoing.self
    ) async {}
}
#endif
