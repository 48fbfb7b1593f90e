// A chat room over a WebSocket endpoint, with reconnection and a resubscription, against a loopback server this
// example starts itself. Run it with `swift run --traits WebSocket ChatExample`; the DocC article "WebSocket
// endpoints" explains each part.
#if WebSocket
import CourierTestServerWebSocket

try await WebSocketTestServer.withServer { server in
    for line in try await ChatClient.run(baseUrl: server.baseUrl) { print(line) }
    print("the server heard: \(await server.messages())")
}
#else
print("ChatExample needs the WebSocket trait: swift run --traits WebSocket ChatExample")
#endif
