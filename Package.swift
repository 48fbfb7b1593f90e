// swift-tools-version:6.2
import PackageDescription

// What a user gets is the library: the `Courier` product depends on swift-log, swift-metrics and
// swift-distributed-tracing alone (and, on Linux, the system's libcurl). Each optional product brings its packages only
// for the users who name its trait: `.package(url: …, from: …, traits: ["AsyncHTTPClient"])`. SwiftPM resolves what
// the products of a dependency need, and leaves out what only a disabled trait, a test or a target that no product
// names would use: the test servers, the examples and the benchmarks below cost a user nothing.
//
// Working on Courier: `swift test` builds and tests the core; `swift test --enable-all-traits` the optional products
// too (SwiftPM has no way yet for a package to enable its own traits for its tests: swift-package-manager#9523).

let nonApplePlatforms: [Platform] = [.linux, .android, .windows, .openbsd, .wasi]

// The tests' own code is not optimized, also in a release build (where `.ci/run` runs them, against the optimized
// library): optimizing the large test module whole took 98 s of the build on one core, without it 56 s. Compiled in
// batches, as in a debug build: file by file, each of the release build's jobs read the whole module again (252 s of
// CPU for the test targets, 162 s in batches).
let testCodeSettings: [SwiftSetting] = [
    .unsafeFlags(["-Onone", "-no-whole-module-optimization", "-enable-batch-mode"], .when(configuration: .release))
]

/// A product of another package that is resolved and built only where `trait` is enabled.
func traitProduct(_ product: String, _ package: String, trait: String, on platforms: [Platform]? = nil)
    -> Target.Dependency
{
    traitProduct(product, package, traits: [trait], on: platforms)
}

/// A product of another package that is resolved and built only where one of `traits` is enabled.
func traitProduct(_ product: String, _ package: String, traits: Set<String>, on platforms: [Platform]? = nil)
    -> Target.Dependency
{
    let condition: TargetDependencyCondition? =
        if let platforms { .when(platforms: platforms, traits: traits) } else { .when(traits: traits) }
    return .product(name: product, package: package, condition: condition)
}

/// The traits of the products that speak over SwiftNIO, which share `CourierNIO`.
let nioTraits: Set<String> = ["AsyncHTTPClient", "WebSocket"]

let package = Package(
    name: "Courier",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9)],
    products: [
        .library(name: "Courier", targets: ["Courier"]),
        .library(name: "CourierAsyncHTTPClient", targets: ["CourierAsyncHTTPClient"]),
        .library(name: "CourierCombine", targets: ["CourierCombine"]),
        .library(name: "CourierOpenAPI", targets: ["CourierOpenAPI"]),
        .library(name: "CourierWebSocket", targets: ["CourierWebSocket"]),
    ],
    traits: [
        .trait(
            name: "AsyncHTTPClient",
            description:
                "CourierAsyncHTTPClient: send over AsyncHTTPClient (brings async-http-client, SwiftNIO, NIOSSL)."
        ),
        .trait(
            name: "Combine",
            description: "CourierCombine: Combine publishers (brings OpenCombine where Apple's Combine does not exist)."
        ),
        .trait(
            name: "OpenAPI",
            description: "CourierOpenAPI: ApiProvider as a generated client's transport (brings swift-openapi-runtime)."
        ),
        .trait(
            name: "WebSocket",
            description: "CourierWebSocket: WebSocket endpoints (brings swift-websocket's WSCore, SwiftNIO, NIOSSL)."
        ),
    ],
    dependencies: [
        // The library's.
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.7.3"),
        // The optional products' (and the test servers' and benchmarks', which no user builds).
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/OpenCombine/OpenCombine", from: "0.14.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-openapi-runtime", from: "1.13.4"),
        .package(url: "https://github.com/hummingbird-project/swift-websocket", from: "1.6.2"),
        // Only for working on Courier. Hummingbird without its default trait ConfigurationSupport: swift-configuration
        // is not used here, and it is the largest module the test server would build after NIO.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: ["FullFoundation"]),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.8.1"),
        // The test server's graceful stop (Hummingbird runs on it already).
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        // The to-do server of the examples (FlyingFox: it builds in seconds, where Hummingbird takes minutes).
        .package(path: "Examples/TodoServer"),
        // The benchmarks' baselines for a generated client's call: the OpenAPI project's own transports.
        .package(url: "https://github.com/apple/swift-openapi-urlsession", from: "1.4.0"),
        .package(url: "https://github.com/swift-server/swift-openapi-async-http-client", from: "1.5.0"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
        // The Observability article's snippets: a real metrics backend, wired as a user would.
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
    ],
    targets: [
        // MARK: The library

        .target(
            name: "Courier",
            dependencies: [
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                // `CurlTransport`, the default transport on Linux: libcurl is already there (FoundationNetworking
                // links it); building needs its headers (`libcurl4-openssl-dev`).
                .target(name: "CCourierCurl", condition: .when(platforms: [.linux])),
                .target(name: "CLibcurl", condition: .when(platforms: [.linux])),
            ]
        ),
        .systemLibrary(
            name: "CLibcurl",
            pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"]), .brew(["curl"])]
        ),
        .target(name: "CCourierCurl", dependencies: ["CLibcurl"]),
        // `CurlTransport` is in `Courier` now (on Linux); the product stays for packages that name it.

        // MARK: Optional products: their code is compiled where their trait is enabled

        .target(
            name: "CourierAsyncHTTPClient",
            dependencies: [
                "Courier",
                "CourierNIO",
                traitProduct("AsyncHTTPClient", "async-http-client", trait: "AsyncHTTPClient"),
                traitProduct("NIOConcurrencyHelpers", "swift-nio", trait: "AsyncHTTPClient"),
                traitProduct("NIOCore", "swift-nio", trait: "AsyncHTTPClient"),
                traitProduct("NIOHTTP1", "swift-nio", trait: "AsyncHTTPClient"),
                traitProduct("NIOHTTPCompression", "swift-nio-extras", trait: "AsyncHTTPClient"),
                traitProduct("NIOPosix", "swift-nio", trait: "AsyncHTTPClient"),
                traitProduct("NIOSSL", "swift-nio-ssl", trait: "AsyncHTTPClient"),
            ]
        ),
        .target(
            name: "CourierWebSocket",
            dependencies: [
                "Courier",
                "CourierNIO",
                traitProduct("WSCore", "swift-websocket", trait: "WebSocket"),
                .product(name: "Logging", package: "swift-log"),
                traitProduct("NIOConcurrencyHelpers", "swift-nio", trait: "WebSocket"),
                traitProduct("NIOCore", "swift-nio", trait: "WebSocket"),
                traitProduct("NIOHTTP1", "swift-nio", trait: "WebSocket"),
                traitProduct("NIOPosix", "swift-nio", trait: "WebSocket"),
                traitProduct("NIOSSL", "swift-nio-ssl", trait: "WebSocket"),
                traitProduct("NIOWebSocket", "swift-nio", trait: "WebSocket"),
            ]
        ),
        // What the products on SwiftNIO share (TLS options as swift-nio-ssl's, NIO's errors as URLError's): no product
        // of its own, built for a user only with one of theirs.
        .target(
            name: "CourierNIO",
            dependencies: [
                "Courier",
                traitProduct("NIOConcurrencyHelpers", "swift-nio", traits: nioTraits),
                traitProduct("NIOCore", "swift-nio", traits: nioTraits),
                traitProduct("NIOHTTP1", "swift-nio", traits: nioTraits),
                traitProduct("NIOPosix", "swift-nio", traits: nioTraits),
                traitProduct("NIOSSL", "swift-nio-ssl", traits: nioTraits),
            ]
        ),
        .target(
            name: "CourierCombine",
            dependencies: [
                "Courier",
                // Apple platforms have Combine itself; OpenCombine is built only where Combine does not exist.
                traitProduct("OpenCombine", "OpenCombine", trait: "Combine", on: nonApplePlatforms),
                traitProduct("OpenCombineDispatch", "OpenCombine", trait: "Combine", on: nonApplePlatforms),
                traitProduct("OpenCombineFoundation", "OpenCombine", trait: "Combine", on: nonApplePlatforms),
            ]
        ),
        .target(
            name: "CourierOpenAPI",
            dependencies: [
                "Courier",
                traitProduct("HTTPTypes", "swift-http-types", trait: "OpenAPI"),
                traitProduct("OpenAPIRuntime", "swift-openapi-runtime", trait: "OpenAPI"),
            ]
        ),

        // MARK: Working on Courier: no product names these, so no user resolves or builds them

        .target(
            name: "CourierTestServer",
            dependencies: [
                "Courier",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
        // Apart from the plain loopback server, so that what needs no HTTPS does not build TLS and HTTP/2.
        .target(
            name: "CourierTestServerTLS",
            dependencies: [
                "Courier",
                "CourierTestServer",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdHTTP2", package: "hummingbird"),
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ]
        ),
        // Apart too: the WebSocket routes (hummingbird-websocket), built only for the WebSocket product's tests.
        .target(
            name: "CourierTestServerWebSocket",
            dependencies: [
                "CourierTestServer",
                "CourierTestServerTLS",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
            ]
        ),
        .executableTarget(
            name: "TodoExample",
            dependencies: ["Courier", .product(name: "TodoServer", package: "TodoServer")],
            path: "Examples/TodoExample"
        ),
        .executableTarget(
            name: "GitHubExample",
            dependencies: ["Courier", "CourierTestServer"],
            path: "Examples/GitHubExample"
        ),
        .executableTarget(
            name: "ChatExample",
            dependencies: [
                "Courier",
                "CourierWebSocket",
                .target(name: "CourierTestServerWebSocket", condition: .when(traits: ["WebSocket"])),
            ],
            path: "Examples/ChatExample"
        ),
        .executableTarget(
            name: "CourierBenchmarks",
            dependencies: [
                "Courier",
                "CourierAsyncHTTPClient",
                "CourierOpenAPI",
                // The raw libcurl baseline.
                "CCourierCurl",
                "CLibcurl",
                "CourierTestServer",
                "CourierTestServerTLS",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "OpenAPIURLSession", package: "swift-openapi-urlsession"),
                // The tables compare Courier's transports and the OpenAPI project's, so the benchmarks are built with
                // the package's traits (`.ci/run` enables them all).
                traitProduct("AsyncHTTPClient", "async-http-client", trait: "AsyncHTTPClient"),
                traitProduct("OpenAPIAsyncHTTPClient", "swift-openapi-async-http-client", trait: "AsyncHTTPClient"),
                // WebSocket echo through Courier beside raw WSClient.
                "CourierWebSocket",
                .target(name: "CourierTestServerWebSocket", condition: .when(traits: ["WebSocket"])),
                traitProduct("WSClient", "swift-websocket", trait: "WebSocket"),
                traitProduct("NIOConcurrencyHelpers", "swift-nio", trait: "WebSocket"),
            ],
            path: "Benchmarks/CourierBenchmarks",
            // Generated/ holds the client the generated-client tables call, made from its openapi.yaml by its
            // `generate` script and kept, so that building the benchmarks does not build the generator.
            exclude: ["Generated/generate", "Generated/openapi.yaml", "Generated/openapi-generator-config.yaml"]
        ),
        .testTarget(
            name: "CourierTests",
            dependencies: [
                "Courier",
                "CourierAsyncHTTPClient",
                "CourierCombine",
                "CourierTestServer",
                "CourierTestServerTLS",
                "GitHubExample",
                "TodoExample",
                traitProduct("AsyncHTTPClient", "async-http-client", trait: "AsyncHTTPClient"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "PropertyBased", package: "swift-property-based"),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
            ],
            swiftSettings: testCodeSettings
        ),
        .testTarget(
            name: "CourierOpenAPITests",
            dependencies: [
                "Courier",
                "CourierAsyncHTTPClient",
                "CourierOpenAPI",
                "CourierTestServer",
                traitProduct("AsyncHTTPClient", "async-http-client", trait: "AsyncHTTPClient"),
                traitProduct("HTTPTypes", "swift-http-types", trait: "OpenAPI"),
                traitProduct("OpenAPIRuntime", "swift-openapi-runtime", trait: "OpenAPI"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
            ],
            swiftSettings: testCodeSettings
        ),
        .testTarget(
            name: "CourierWebSocketTests",
            dependencies: [
                "Courier",
                "CourierTestServer",
                "CourierWebSocket",
                // hummingbird-websocket is built only for the product's tests, which need its trait.
                .target(name: "CourierTestServerWebSocket", condition: .when(traits: ["WebSocket"])),
                .target(name: "CourierTestServerTLS", condition: .when(traits: ["WebSocket"])),
                .target(name: "ChatExample", condition: .when(traits: ["WebSocket"])),
                traitProduct("NIOEmbedded", "swift-nio", trait: "WebSocket"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
            ],
            swiftSettings: testCodeSettings
        ),
        .testTarget(
            name: "ExamplesTests",
            dependencies: ["Courier", "CourierTestServer", "GitHubExample", "TodoExample"],
            swiftSettings: [.treatAllWarnings(as: .error)] + testCodeSettings
        ),
        .testTarget(
            name: "DocumentationTests",
            dependencies: [
                "Courier",
                "CourierAsyncHTTPClient",
                "CourierTestServer",
                "CourierTestServerTLS",
                "GitHubExample",
                "TodoExample",
                traitProduct("AsyncHTTPClient", "async-http-client", trait: "AsyncHTTPClient"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
            ],
            // Every snippet of the README and the DocC articles is compiled here: a warning would be one in the docs.
            swiftSettings: [.treatAllWarnings(as: .error)] + testCodeSettings
        ),
    ],
    swiftLanguageModes: [.v6]
)
