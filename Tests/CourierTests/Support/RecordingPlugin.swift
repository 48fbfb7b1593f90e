import Foundation

@testable import Courier

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A list that many threads append to.
final class EventLog<Event: Sendable>: Sendable {
    private let storage = Locked<[Event]>([])

    func append(_ event: Event) {
        storage.withLock { $0.append(event) }
    }

    var events: [Event] { storage.withLock { $0 } }
}

/// Records each hook call as `"<name>.<hook>"`, and what `didPerformRequest` saw.
final class RecordingPlugin: Plugin<TestApi>, @unchecked Sendable {
    let name: String
    let log: EventLog<String>
    let results = EventLog<String>()
    let addsHeader: (name: String, value: String)?

    init(_ name: String, log: EventLog<String> = EventLog(), addsHeader: (name: String, value: String)? = nil) {
        self.name = name
        self.log = log
        self.addsHeader = addsHeader
    }

    override func modifyRequest(_ request: inout URLRequest, endpoint: TestApi) {
        log.append("\(name).modify")
        if let addsHeader { request.setValue(addsHeader.value, forHTTPHeaderField: addsHeader.name) }
    }

    override func willPerformRequest(_ request: URLRequest, endpoint: TestApi) {
        log.append("\(name).will")
    }

    override func didPerformRequest<ResultType: Decodable>(
        urlSessionResult: ApiProvider<TestApi>.URLSessionResult,
        typedResult: ApiProvider<TestApi>.TypedResult<ResultType>,
        endpoint: TestApi
    ) {
        log.append("\(name).did")
        switch typedResult {
        case .success: results.append("success")
        case .failure(let error): results.append("\(error)")
        }
    }
}
