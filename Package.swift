// swift-tools-version:6.2
import PackageDescription

let nonApplePlatforms: [Platform] = [.linux, .android, .windows, .openbsd, .wasi]

// The tests' own code is not optimized, also in a release build (where `.ci/run` runs them, against the optimized
// library): optimizing the large test module whole took 98 s of the build on one core, without it 56 s.
let testCodeSettings: [SwiftSetting] = [
    .unsafeFlags(["-Onone", "-no-whole-module-optimization"], .when(configuration: .release))
]

let package = Package(
    name: "Courier",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9)],
    products: [
        .library(name: "Courier", targets: ["Courier"]),
        .library(name: "CourierAsyncHTTPClient", targets: ["CourierAsyncHTTPClient"]),
        .library(name: "CourierCombine", targets: ["CourierCombine"]),
        .library(name: "CourierCurl", targets: ["CourierCurl"]),
        .library(name: "CourierOpenAPI", targets: ["CourierOpenAPI"]),
        .library(name: "CourierTestServer", targets: ["CourierTestServer"]),
        .library(name: "CourierTestServerTLS", targets: ["CourierTestServerTLS"]),
        .executable(name: "TodoExample", targets: ["TodoExample"]),
        .executable(name: "GitHubExample", targets: ["GitHubExample"]),
        .executable(name: "OpenAPIExample", targets: ["OpenAPIExample"]),
    ],
    dependencies: [
        // Without Hummingbird's default trait ConfigurationSupport: swift-configuration is not used here, and it is
        // the largest module the examples' loopback server would build after NIO.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: ["FullFoundation"]),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.7.3"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-openapi-runtime", from: "1.13.4"),
        // Only for the OpenAPI example: its client is generated at build time, as users generate theirs.
        .package(url: "https://github.com/apple/swift-openapi-generator", from: "1.14.3"),
        // Only for the benchmarks: the OpenAPI project's own transports, the baselines of a generated client's call.
        .package(url: "https://github.com/apple/swift-openapi-urlsession", from: "1.4.0"),
        .package(url: "https://github.com/swift-server/swift-openapi-async-http-client", from: "1.5.0"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
        .package(url: "https://github.com/OpenCombine/OpenCombine", from: "0.14.0"),
        // Only for the Observability article's snippets: a real metrics backend, wired as a user would.
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
    ],
    targets: [
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
        .target(
            name: "CourierAsyncHTTPClient",
            dependencies: [
                "Courier",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPCompression", package: "swift-nio-extras"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ]
        ),
        .systemLibrary(
            name: "CLibcurl",
            pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"]), .brew(["curl"])]
        ),
        .target(name: "CCourierCurl", dependencies: ["CLibcurl"]),
        // `CurlTransport` is in `Courier` now (on Linux); the product stays for packages that name it.
        .target(name: "CourierCurl", dependencies: ["Courier"]),
        .target(
            name: "CourierCombine",
            dependencies: [
                "Courier",
                // Apple platforms have Combine itself; OpenCombine is built only where Combine does not exist.
                .product(name: "OpenCombine", package: "OpenCombine", condition: .when(platforms: nonApplePlatforms)),
                .product(
                    name: "OpenCombineDispatch",
                    package: "OpenCombine",
                    condition: .when(platforms: nonApplePlatforms)
                ),
                .product(
                    name: "OpenCombineFoundation",
                    package: "OpenCombine",
                    condition: .when(platforms: nonApplePlatforms)
                ),
            ]
        ),
        .target(
            name: "CourierOpenAPI",
            dependencies: [
                "Courier",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
            ]
        ),
        .target(
            name: "CourierTestServer",
            dependencies: [
                "Courier",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
        // Apart from the plain loopback server, so that the examples (and a user's tests that need no HTTPS) do not
        // build TLS and HTTP/2.
        .target(
            name: "CourierTestServerTLS",
            dependencies: [
                "CourierTestServer",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdHTTP2", package: "hummingbird"),
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ]
        ),
        .executableTarget(
            name: "CourierBenchmarks",
            dependencies: [
                "Courier",
                "CourierAsyncHTTPClient",
                "CourierCurl",
                // The raw libcurl baseline.
                "CCourierCurl",
                "CLibcurl",
                "CourierTestServer",
                "CourierTestServerTLS",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                "CourierOpenAPI",
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "OpenAPIURLSession", package: "swift-openapi-urlsession"),
                .product(name: "OpenAPIAsyncHTTPClient", package: "swift-openapi-async-http-client"),
            ],
            path: "Benchmarks/CourierBenchmarks",
            plugins: [.plugin(name: "OpenAPIGenerator", package: "swift-openapi-generator")]
        ),
        .executableTarget(
            name: "CourierFuzz",
            dependencies: ["Courier"],
            path: "Fuzz/CourierFuzz"
        ),
        .executableTarget(
            name: "TodoExample",
            dependencies: ["Courier", "CourierCombine", "CourierTestServer"],
            path: "Examples/TodoExample"
        ),
        .testTarget(
            name: "CourierTests",
            dependencies: [
                "Courier",
                "CourierCombine",
                "CourierAsyncHTTPClient",
                "CourierCurl",
                "CourierTestServer",
                "CourierTestServerTLS",
                "GitHubExample",
                "TodoExample",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
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
        .executableTarget(
            name: "GitHubExample",
            dependencies: ["Courier", "CourierTestServer"],
            path: "Examples/GitHubExample"
        ),
        .testTarget(
            name: "CourierOpenAPITests",
            dependencies: [
                "Courier",
                "CourierAsyncHTTPClient",
                "CourierOpenAPI",
                "CourierTestServer",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
            ],
            swiftSettings: testCodeSettings
        ),
        .executableTarget(
            name: "OpenAPIExample",
            dependencies: [
                "Courier",
                "CourierAsyncHTTPClient",
                "CourierOpenAPI",
                "CourierTestServer",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
            ],
            path: "Examples/OpenAPIExample",
            plugins: [.plugin(name: "OpenAPIGenerator", package: "swift-openapi-generator")]
        ),
        .testTarget(
            name: "ExamplesTests",
            dependencies: [
                "Courier",
                "CourierCurl",
                "CourierOpenAPI",
                "CourierTestServer",
                "GitHubExample",
                "OpenAPIExample",
                "TodoExample",
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
            ],
            swiftSettings: [.treatAllWarnings(as: .error)] + testCodeSettings
        ),
        .testTarget(
            name: "DocumentationTests",
            dependencies: [
                "Courier",
                "CourierAsyncHTTPClient",
                "CourierCurl",
                "CourierTestServer",
                "CourierTestServerTLS",
                "GitHubExample",
                "TodoExample",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
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
