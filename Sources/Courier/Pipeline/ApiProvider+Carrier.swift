extension ApiProvider {
    /// What carries a provider's requests after the plugins: the network, or a mocking behavior.
    enum Carrier: Sendable {
        case network(any Transport)
        case mocks(MockingBehavior<EndpointType>)
    }
}
