#if !Combine
// This product's code is compiled only where the package trait "Combine" is enabled: the trait is what brings in
// OpenCombine where Combine does not exist, for the users who ask for it. Named without it, the doors say what to add.
// Courier's names come with the import either way, as a Microya file that imports CourierCombine alone expects.
@_exported import Courier

extension ApiProvider {
    /// Unavailable: publishers need the `Combine` trait of the Courier package.
    @available(
        *,
        unavailable,
        message: "CourierCombine needs its trait: .package(url: ..., from: ..., traits: [\"Combine\"])"
    )
    public func publisher<ResultType>(on endpoint: EndpointType, decodeBodyTo: ResultType.Type) {}

    /// Unavailable: publishers need the `Combine` trait of the Courier package.
    @available(
        *,
        unavailable,
        message: "CourierCombine needs its trait: .package(url: ..., from: ..., traits: [\"Combine\"])"
    )
    public func publisher(on endpoint: EndpointType) {}

    /// Unavailable: publishers need the `Combine` trait of the Courier package.
    @available(
        *,
        unavailable,
        message: "CourierCombine needs its trait: .package(url: ..., from: ..., traits: [\"Combine\"])"
    )
    public func rawDataPublisher(on endpoint: EndpointType) {}

    /// Unavailable: publishers need the `Combine` trait of the Courier package.
    @available(
        *,
        unavailable,
        message: "CourierCombine needs its trait: .package(url: ..., from: ..., traits: [\"Combine\"])"
    )
    public func dataResponsePublisher(on endpoint: EndpointType) {}
}
#endif
