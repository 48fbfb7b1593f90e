import Foundation

/// One event of a `text/event-stream`, as the HTML standard's event stream interpretation dispatches it.
public struct ServerSentEvent: Sendable, Hashable {
    /// The event type: the `event` field, or `message` when the event had none.
    public var type: String
    /// The `data` fields, joined with line feeds.
    public var data: String
    /// The last event ID at this event: its own `id` field, or the last one before it (IDs carry over until changed;
    /// an empty `id` field clears it). `Last-Event-ID` carries it on a reconnection.
    public var id: String

    /// Creates an event.
    public init(type: String = "message", data: String, id: String = "") {
        self.type = type
        self.data = data
        self.id = id
    }

    /// The data decoded from JSON as `type`, e.g. with the endpoint's ``Endpoint/decoder``.
    /// - Throws: The decoder's `DecodingError` when it does not decode.
    public func decodeData<Value: Decodable>(
        as type: Value.Type,
        using decoder: JSONDecoder = JSONDecoder()
    ) throws
        -> Value
    {
        try decoder.decode(type, from: Data(data.utf8))
    }
}
