/// How long a test waits for what normally comes in milliseconds before it fails as hung: its time limit, and every
/// real-time wait inside it (a semaphore, the server gathering requests, a connect or request timeout that is only
/// there to end a hang).
///
/// Ten minutes, because a test's wall time is not its own: Swift Testing starts every test of a run at once, and on two
/// busy cores under ThreadSanitizer the whole run keeps both cores full for a minute or two, so a test that needs a
/// second of CPU can finish only near the run's end. A guard shorter than the run fails tests for the machine's
/// slowness (CI did, at one minute); ten minutes is far past any run and still ends a real hang well within CI's time.
public enum HangGuard {
    /// The guard in whole minutes, for `.timeLimit(.minutes(HangGuard.minutes))`.
    public static let minutes = 10

    /// The guard in seconds.
    public static let seconds = minutes * 60

    /// The guard as a `Duration`.
    public static let duration = Duration.seconds(seconds)
}
