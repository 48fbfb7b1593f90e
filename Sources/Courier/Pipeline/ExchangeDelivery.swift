/// Where a request's outcome goes, once: a continuation for the `async` doors, which saves a closure per request, or
/// a closure.
enum ExchangeDelivery: Sendable {
    case resuming(UnsafeContinuation<Exchange, Never>)
    case calling(@Sendable (Exchange) -> Void)

    func callAsFunction(_ exchange: Exchange) {
        switch self {
        case .resuming(let continuation): continuation.resume(returning: exchange)
        case .calling(let deliver): deliver(exchange)
        }
    }
}
