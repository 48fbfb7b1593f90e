import Foundation
import Hummingbird
import HummingbirdCore
import Logging
import ServiceLifecycle

/// An HTTP server on `127.0.0.1` and a free port, started inside the test process, with httpbin-like routes (over
/// HTTPS too, with `CourierTestServerTLS`).
///
/// Routes (all answer JSON unless said otherwise):
/// - `/echo` and `/echo/**`, any method: the ``ReceivedRequest`` as JSON.
/// - `/status/{code}`: that status, with the body `{"code": …, "message": …}`.
/// - `/plain/{code}`: that status, with a `text/plain` body that is not JSON.
/// - `/empty/{code}`: that status with no body at all (e.g. 204, or 200 with nothing).
/// - `/slow?ms=N`: answers `{"sleptMilliseconds": N}` after N milliseconds.
/// - `/drop`: promises 1,000 bytes, sends 7 and closes the connection.
/// - `/challenge`: 401 with `WWW-Authenticate: Basic realm="courier"` and a JSON error body.
/// - `/redirect?to=URL[&status=302]` (GET, POST, PUT, PATCH, DELETE): a redirect to `URL`, or
///   to itself for `to=loop`.
/// - `/set-cookie?name=value`: sets the cookie `name=value`.
/// - `/drip`, `/bytes`: slow and large answers (see `StreamingRoutes`).
/// - `/sink` (POST, PUT): reads a body of any size as a stream and answers a ``SinkReport``; `/relay` (POST) sends
///   each part of the body back as it arrives (see `SinkRoute`).
/// - `/gzip-zeros?count=N`: N zero bytes, gzip-compressed on the wire.
/// - `/file`, `/events/{key}`, `/event-stream`: generated files with ranges, and event streams (see
///   `TransferRoutes`).
/// - `/flaky/{key}`, `/protected`, `/typed`, `/hold/{id}`, `/silent/{id}`, `/flood/{id}`, `/gather/{key}`: failures
///   and hangs on purpose (see `ResilienceRoutes`).
/// - `/todos` (GET with `page`, POST), `/todos/{id}` (GET, DELETE): a tiny to-do API for examples.
/// - `/zen`, `/users/{name}`, `/users/{name}/repos`, `/repos/{owner}/{repo}/issues`, `/gifs`,
///   `/login/oauth/access_token`: a GitHub-like API for the example ported from Moya (see `GitHubRoutes`).
///
/// Every request, on any route, is recorded (those to `/sink`, `/relay` and `/silent/{id}` without their body):
/// ``receivedRequests()`` returns them in arrival order.
public final class TestServer: Sendable {
    /// The port the server listens on.
    public let port: Int
    /// `http://127.0.0.1:<port>`.
    public let baseUrl: URL

    private let log: RequestLog
    private let state: RouteState
    private let services: ServiceGroup
    private let runTask: Task<Void, Never>

    private init(
        port: Int,
        baseUrl: URL,
        log: RequestLog,
        state: RouteState,
        services: ServiceGroup,
        runTask: Task<Void, Never>
    ) {
        self.port = port
        self.baseUrl = baseUrl
        self.log = log
        self.state = state
        self.services = services
        self.runTask = runTask
    }

    /// Starts a server on `127.0.0.1` and a port chosen by the system, and returns once it accepts connections.
    /// (`CourierTestServerTLS` adds `start(tls:)`, the same server over HTTPS.)
    public static func start() async throws -> TestServer {
        try await start(serving: .http1(), scheme: "http")
    }

    /// Starts a server that speaks what `builder` makes, whose ``baseUrl`` has `scheme`: how
    /// `CourierTestServerTLS` serves the same routes over HTTPS without this target depending on TLS.
    package static func start(serving builder: HTTPServerBuilder, scheme: String) async throws -> TestServer {
        let log = RequestLog()
        let state = RouteState()
        let (ports, portContinuation) = AsyncStream.makeStream(of: Int.self)
        let app = Application(
            router: TestRoutes.router(log: log, state: state),
            server: builder,
            configuration: .init(address: .hostname("127.0.0.1", port: 0), serverName: nil),
            onServerRunning: { channel in
                portContinuation.yield(channel.localAddress?.port ?? 0)
                portContinuation.finish()
            },
            logger: quietLogger
        )
        // Stopped by a graceful shutdown, not by cancelling the task: a connection accepted but not yet handed to a
        // handler when the task is cancelled traps in NIO (swift-nio#2637). Answers held open on purpose (`/hold`,
        // `/silent`, `/flood`) never end by themselves, so the group cancels what is left after a grace.
        var configuration = ServiceGroupConfiguration(services: [app], logger: quietLogger)
        configuration.maximumGracefulShutdownDuration = .seconds(2)
        let services = ServiceGroup(configuration: configuration)
        let runTask = Task {
            try? await services.run()
            portContinuation.finish()
        }
        var port = 0
        for await boundPort in ports { port = boundPort }
        guard port > 0, let baseUrl = URL(string: "\(scheme)://127.0.0.1:\(port)") else {
            await services.triggerGracefulShutdown()
            await runTask.value
            throw TestServerError.couldNotStart
        }
        return TestServer(port: port, baseUrl: baseUrl, log: log, state: state, services: services, runTask: runTask)
    }

    /// The byte at `offset` of every file `/file` generates.
    public static func generatedFileByte(at offset: Int64) -> UInt8 {
        TransferRoutes.fileByte(at: offset)
    }

    /// The requests received so far, in arrival order.
    public func receivedRequests() async -> [ReceivedRequest] {
        await log.requests
    }

    /// How many connections the requests so far came on (told apart by the client's port).
    public func connectionCount() async -> Int {
        await log.clientPorts.count
    }

    /// Returns once the server has received at least `count` requests (on any route), without polling.
    public func waitForRequests(count: Int = 1) async {
        await log.waitForRequests(count: count)
    }

    /// Returns once the client of the held answer `/hold/{id}`, `/silent/{id}` or `/flood/{id}` has closed its
    /// connection, as the server saw it.
    public func waitForDisconnect(of id: String) async {
        await state.waitForDisconnect(id)
    }

    /// Stops the server and waits until it has closed its socket: it accepts no more connections, answers what it
    /// was answering, and cuts the answers held open on purpose after two seconds.
    public func stop() async {
        await services.triggerGracefulShutdown()
        await runTask.value
    }

    /// A URL on this server, e.g. `url("/status/404")`.
    public func url(_ pathAndQuery: String) -> URL {
        URL(string: baseUrl.absoluteString + pathAndQuery) ?? baseUrl
    }
}

/// Test output stays readable: the server reports only what would make a test fail to start.
private let quietLogger: Logger = {
    var logger = Logger(label: "CourierTestServer")
    logger.logLevel = .critical
    return logger
}()

/// Why a test server could not start.
public enum TestServerError: Error {
    /// The server did not bind to a port on 127.0.0.1.
    case couldNotStart
}

extension TestServer {
    /// Starts a server, runs `body` with it and stops it again, also when `body` throws.
    /// - Parameter body: What to do with the server.
    public static func withServer<Result>(_ body: (TestServer) async throws -> Result) async throws -> Result {
        try await with(try await start(), body)
    }

    /// Runs `body` with `server` and stops the server, also when `body` throws.
    package static func with<Result>(
        _ server: TestServer,
        _ body: (TestServer) async throws -> Result
    ) async throws -> Result {
        do {
            let result = try await body(server)
            await server.stop()
            return result
        } catch {
            await server.stop()
            throw error
        }
    }
}
