import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The pipeline's way out, which every door shares: decoding, and the plugins' `didPerformRequest`.
extension ApiProvider {
    /// Decodes the exchange on the caller's side and lets every plugin see the outcome.
    func finish<ResultType: Decodable>(
        _ exchange: Exchange,
        endpoint: EndpointType
    ) -> TypedResult<ResultType> {
        report(
            ResponseDecoder.decode(exchange, as: ResultType.self, endpoint: endpoint),
            of: exchange,
            endpoint: endpoint
        )
    }

    /// Lets every plugin and observer see `typedResult`, the outcome of `exchange`, and returns it.
    func report<ResultType: Decodable>(
        _ typedResult: TypedResult<ResultType>,
        of exchange: Exchange,
        endpoint: EndpointType
    ) -> TypedResult<ResultType> {
        guard hasPlugins else { return typedResult }
        if pluginHooks.contains(.didPerformRequest) {
            let receiving = roles.receivingResults
            let urlSessionResult: URLSessionResult = (exchange.data, exchange.response, exchange.error)
            exchange.observation.bound {
                for plugin in receiving {
                    plugin.didPerformRequest(
                        urlSessionResult: urlSessionResult,
                        typedResult: typedResult,
                        endpoint: endpoint
                    )
                }
            }
        }
        exchange.observation?.ended(with: typedResult, exchange: exchange)
        return typedResult
    }
}
