import Hummingbird
import NIOCore

/// The routes' request context: Hummingbird's basic one, plus the client's address, so that the server can tell
/// which connection a request came on (the client's port: an HTTP/2 stream's is its connection's).
struct TestRequestContext: RequestContext, RemoteAddressRequestContext {
    var coreContext: CoreRequestContextStorage
    let remoteAddress: SocketAddress?

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
    }
}
