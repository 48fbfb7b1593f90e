import Courier
import Foundation
import XCTest

@testable import TodoExample

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Blocking waits on every thread of Swift concurrency's pool, while the plugins' hooks suspend.
///
/// An XCTest on purpose: XCTest cases run one at a time, before the Swift Testing suites, so blocking the pool here
/// cannot starve the in-process servers of tests running alongside.
final class HookStarvationXCTests: XCTestCase {
    /// Suspends in `prepare` until a Dispatch thread resumes it, so that the request can only go on if the hook's task
    /// resumes somewhere.
    final class SuspendingPlugin: Plugin<TodoApi>, @unchecked Sendable {
        override func prepare(_ request: inout URLRequest, endpoint: TodoApi) async throws {
            await withCheckedContinuation { continuation in
                DispatchQueue.global().async { continuation.resume() }
            }
        }
    }

    func testBlockingWaitsInsideTasksDoNotStarveHooksThatSuspend() async {
        let provider = ApiProvider<TodoApi>(plugins: [SuspendingPlugin()], mockingBehavior: MockingBehavior())
        let cooperativeThreads = ProcessInfo.processInfo.activeProcessorCount
        // More blocked tasks than the pool has threads: the hooks' continuations must run on threads of their own.
        let succeeded = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<(4 * cooperativeThreads) {
                group.addTask {
                    (try? provider.performRequestAndWait(on: .list(page: 1), decodeBodyTo: [Todo].self).get()) != nil
                }
            }
            return await group.reduce(into: 0) { $0 += $1 ? 1 : 0 }
        }
        XCTAssertEqual(succeeded, 4 * cooperativeThreads)
    }
}
