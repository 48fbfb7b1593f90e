// The to-do API's OpenAPI document (openapi.yaml), generated into a client by swift-openapi-generator's build
// plugin, called through Courier over each transport against a loopback server that this example starts itself.
// Run it with `swift run --package-path Examples/OpenAPIExample`.
import TodoServer

let server = try await TodoServer.start()
for (name, transport) in Client.exampleTransports() {
    print("over \(name):")
    for line in try await Client.overCourier(serverURL: server.baseUrl, transport: transport).walkThrough() {
        print(line)
    }
}
await server.stop()
