extension Duration {
    /// The duration in seconds, fractions included: what `Double`-based arithmetic (backoff, dates) works in.
    var inSeconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
