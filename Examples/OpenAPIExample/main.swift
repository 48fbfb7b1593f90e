// The to-do API's OpenAPI document (openapi.yaml), generated into a client by swift-openapi-generator's build
// plugin, called through Courier over both transports against a loopback server that this example starts itself.
// Run it with `swift run OpenAPIExample`.
import AsyncHTTPClient
import Courier
import CourierAsyncHTTPClient
import CourierTestServer
import Foundation

let server = try await TestServer.start()
let transports: [(name: String, transport: any Transport)] = [
    ("URLSession", URLSessionTransport()),
    ("AsyncHTTPClient", AsyncHTTPClientTransport(client: .shared)),
]
for (name, transport) in transports {
    print("over \(name):")
    let client = Client.overCourier(serverURL: server.baseUrl, transport: transport)
    let page = try await client.listTodos(query: .init(page: 1)).ok.body.json
    print("  listed \(page.map(\.title))")
    let created = try await client.createTodo(body: .json(.init(title: "Buy milk"))).created.body.json
    print("  created #\(created.id ?? 0) \(created.title)")
    print("  looked up 7: \(try await client.lookUp(id: 7))")
    print("  looked up 999: \(try await client.lookUp(id: 999))")
    _ = try await client.deleteTodo(path: .init(id: 3)).noContent
    print("  deleted 3")
}
await server.stop()
