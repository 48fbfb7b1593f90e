import Foundation
import Testing

@testable import Courier

/// The default endpoint names of metrics and traces: the type and the case, never the associated values.
@Suite struct TelemetryNameTests {
    final class Payload: Sendable {}

    enum Described: Endpoint, CustomStringConvertible {
        typealias ClientErrorType = TestError
        case plain
        case holding(Payload)
        case numbered(id: Int, name: String)

        var subpath: String { "" }
        var method: HttpMethod { .get }
        var description: String { "described as anything but its case" }
    }

    enum Wrapper<Value: Sendable>: Endpoint {
        typealias ClientErrorType = TestError
        case value(Value)

        var subpath: String { "" }
        var method: HttpMethod { .get }
    }

    @Test func casesAreNamedWithoutTheirValues() {
        #expect(TestApi.echo(path: "users/1").telemetryName == "TestApi.echo")
        #expect(TestApi.status(404).telemetryName == "TestApi.status")
        #expect(TestApi.drop.telemetryName == "TestApi.drop")
        #expect(Described.plain.telemetryName == "Described.plain")
        #expect(Described.numbered(id: 7, name: "seven").telemetryName == "Described.numbered")
        #expect(Wrapper.value(3).telemetryName == "Wrapper<Int>.value")
    }

    @Test func anEndpointThatIsNotAnEnumIsNamedByItsType() {
        #expect(FreeEndpoint().telemetryName == "FreeEndpoint")
    }

    @Test func namingACaseNeitherKeepsNorReleasesWhatItHolds() {
        weak var released: Payload?
        do {
            let payload = Payload()
            released = payload
            for _ in 0..<1_000 { #expect(Described.holding(payload).telemetryName == "Described.holding") }
            #expect(released != nil)
        }
        #expect(released == nil)
    }
}
