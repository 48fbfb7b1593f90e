import Dispatch
import Tracing

/// Runs the plugins' `async` hooks of one step of a request.
///
/// The task starts on the calling thread and stays there until a hook really suspends, so hooks that return at
/// once (the default ones) cost no thread hop: a mocked answer still reaches its caller inside the
/// ``TestScheduler`` advance that delivers it. After a suspension, the task goes on on Dispatch's threads rather
/// than the Swift concurrency pool, which ``ApiProvider/performRequestAndWait(on:decodeBodyTo:)`` may be blocking.
/// Apple platforms before the 26 releases lack `Task.immediate` (each step starts an ordinary task), and before
/// macOS 15 / iOS 18 task executors (there hooks run on the Swift concurrency pool).
enum HookTask {
    /// - Returns: The action that cancels the task.
    static func start(_ operation: @escaping @Sendable () async -> Void) -> @Sendable () -> Void {
        let task: Task<Void, Never>
        if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) {
            task = Task.immediate(executorPreference: HookExecutor.shared, operation: operation)
        } else if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
            task = Task(executorPreference: HookExecutor.shared, operation: operation)
        } else {
            task = Task(operation: operation)
        }
        return { task.cancel() }
    }
}

extension HookTask {
    /// A task that outlives the hook that started it (e.g. a token refresh that many requests wait for), run
    /// off the Swift concurrency pool like the hooks.
    ///
    /// It serves many requests, so it belongs to none: it runs outside the observation and the trace of the request
    /// whose hook started it (a refresh that calls an API starts a trace of its own).
    static func detached<Success: Sendable>(
        _ operation: @escaping @Sendable () async throws -> Success
    ) -> Task<Success, Error> {
        let unowned: @Sendable () async throws -> Success = {
            try await RequestObservation.$current.withValue(nil) {
                try await ServiceContext.withValue(nil, operation: operation)
            }
        }
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
            return Task(executorPreference: HookExecutor.shared, operation: unowned)
        }
        return Task(operation: unowned)
    }
}

/// Runs the jobs of hook tasks on Dispatch's global queue.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
final class HookExecutor: TaskExecutor {
    static let shared = HookExecutor()

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        DispatchQueue.global().async { job.runSynchronously(on: executor) }
    }
}
