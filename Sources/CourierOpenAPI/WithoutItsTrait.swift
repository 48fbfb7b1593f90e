#if !OpenAPI
// This product's code is compiled only where the package trait "OpenAPI" is enabled: the trait is what brings in
// swift-openapi-runtime, for the users who ask for it. Named without it, the operation says what to add.
import Courier

/// Unavailable: a generated client's operations need the `OpenAPI` trait of the Courier package.
@available(
    *,
    unavailable,
    message: "CourierOpenAPI needs its trait: .package(url: ..., from: ..., traits: [\"OpenAPI\"])"
)
public struct OpenAPIOperation {}
#endif
