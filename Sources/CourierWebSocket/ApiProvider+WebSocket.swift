#if WebSocket
import Courier
import Foundation
import NIOConcurrencyHelpers

extension ApiProvider {
    /// Opens a WebSocket to `endpoint`: its messages in are `Incoming` values, its messages out `Outgoing` values.
    ///
    /// The upgrade request is the endpoint's request (its URL, query and headers, built and checked as for any
    /// request, with `http`/`https` URLs taken as `ws`/`wss`), and it goes through the provider's plugins as any
    /// other: `modifyRequest`, `prepare` (a token), `process` (a token refresh and one retry after a 401), the
    /// observers. The endpoint's `timeout` bounds the upgrade, and its `tls` options are applied.
    ///
    /// ```swift
    /// switch await provider.webSocket(on: .room(id: 7), receiving: ChatEvent.self, sending: ChatCommand.self) {
    /// case .success(let room):
    ///     try await room.send(.join(name: "ada"))
    ///     for try await event in room { print(event) }
    /// case .failure(let error):
    ///     print(error)  // e.g. .clientError(statusCode: 403, clientError: …)
    /// }
    /// ```
    /// - Returns: The open connection, or the `ApiError` a request would get for the same answer: a refused upgrade
    ///   is a `clientError` with the endpoint's `ClientErrorType` decoded, a `serverError`, a transport
    ///   failure, and `ApiError.unexpectedStatusCode(statusCode:)` for a server that answered without switching
    ///   (e.g. `200`). A provider the mocks answer refuses with `ApiError.invalidRequest(reason:)` and opens nothing:
    ///   mocked WebSockets are not built yet.
    /// - Parameters:
    ///   - endpoint: The endpoint whose request asks for the upgrade.
    ///   - receiving: The type of the messages in.
    ///   - sending: The type of the messages out.
    ///   - options: Limits, keep-alive and reconnection.
    ///   - resubscribe: Runs after each reconnection (``WebSocketOptions/reconnection``), on the new connection,
    ///     before anything else is sent on it: what the server must hear again (a subscription, a room joined), sent
    ///     with the function it is given (the connection's own `send(_:)` waits for the hook to end). If it throws,
    ///     the connection ends with ``WebSocketError/resubscribeFailed(error:)``.
    public func webSocket<Incoming: Decodable & Sendable, Outgoing: Encodable & Sendable>(
        on endpoint: EndpointType,
        receiving: Incoming.Type = Incoming.self,
        sending: Outgoing.Type = Outgoing.self,
        options: WebSocketOptions = WebSocketOptions(),
        resubscribe: (@Sendable (_ send: WebSocketConnection<Incoming, Outgoing>.Sender) async throws -> Void)? = nil
    ) async -> Result<WebSocketConnection<Incoming, Outgoing>, ApiError<EndpointType.ClientErrorType>> {
        guard transport != nil else {
            return .failure(
                .invalidRequest(reason: "\(endpoint) is a WebSocket on a mocked provider, which cannot script one yet")
            )
        }
        let telemetry = connectionTelemetry(for: endpoint)
        let switched: SwitchedConnection
        switch await switchedConnection(on: endpoint, options: options, telemetry: telemetry) {
        case .success(let connection): switched = connection
        case .failure(let error):
            telemetry?.ended(closeCode: nil, reason: nil, errorType: error.kind)
            return .failure(error)
        }
        telemetry?.opened(host: switched.server.host, port: switched.server.port)
        return .success(
            await WebSocketConnection<Incoming, Outgoing>.open(
                switched,
                options: options,
                scheduler: WebSocketClock.of(timer),
                decoder: endpoint.decoder,
                encoder: endpoint.encoder,
                telemetry: telemetry,
                reopen: {
                    await self.switchedConnection(on: endpoint, options: options, telemetry: telemetry).mapError {
                        error in
                        .init(error: error, retryable: Self.isWorthReconnecting(after: error, under: options))
                    }
                },
                resubscribe: resubscribe
            )
        )
    }

    /// Sends the upgrade request for `endpoint` through the pipeline, under the connection's span when there is one
    /// (so that the upgrade request's span is its child); the connection the server switched.
    private func switchedConnection(
        on endpoint: EndpointType,
        options: WebSocketOptions,
        telemetry: ConnectionTelemetry?
    ) async -> Result<SwitchedConnection, ApiError<EndpointType.ClientErrorType>> {
        guard let telemetry else { return await switchedConnection(on: endpoint, options: options) }
        return await telemetry.withSpanContext { await self.switchedConnection(on: endpoint, options: options) }
    }

    private func switchedConnection(
        on endpoint: EndpointType,
        options: WebSocketOptions
    ) async -> Result<SwitchedConnection, ApiError<EndpointType.ClientErrorType>> {
        let upgrade = WebSocketUpgrade(options: options)
        let handle = NIOLockedValueBox<(request: CancellableRequest?, cancelled: Bool)>((nil, false))
        let outcome = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let request = performUpgrade(on: endpoint, over: upgrade) { continuation.resume(returning: $0) }
                let cancelled = handle.withLockedValue { handle in
                    handle.request = request
                    return handle.cancelled
                }
                if cancelled { request.cancel() }
            }
        } onCancel: {
            handle.withLockedValue { handle in
                handle.cancelled = true
                return handle.request
            }?.cancel()
        }
        switch outcome {
        case .failure(let error):
            upgrade.takeConnection()?.frames.channel.close(promise: nil)
            return .failure(error)
        case .success:
            guard let switched = upgrade.takeConnection() else { return .failure(.noResponseReceived(error: nil)) }
            return .success(switched)
        }
    }

    /// A refused upgrade with a status the policy retries, or a failure to connect it retries.
    private static func isWorthReconnecting(
        after error: ApiError<EndpointType.ClientErrorType>,
        under options: WebSocketOptions
    ) -> Bool {
        guard let policy = options.reconnection?.policy else { return false }
        switch error {
        case .clientError(let statusCode, _), .serverError(let statusCode), .unexpectedStatusCode(let statusCode):
            return policy.retryableStatusCodes.contains(statusCode)
        case .noResponseReceived(let error):
            return policy.retries(transportError: error)
        default:
            return false
        }
    }
}
#endif
