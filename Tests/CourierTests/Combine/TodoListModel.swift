#if Combine
import CourierCombine
import Foundation

@testable import TodoExample

/// The to-do list as an app's model keeps it with Combine: the fourth door, from the optional `CourierCombine`
/// product, for the README's `TodoApi`.
final class TodoListModel {
    private(set) var titles: [String] = []
    private(set) var openedTodo: Todo?
    private(set) var errorMessage: String?
    private let provider: ApiProvider<TodoApi>
    private var cancellables: Set<AnyCancellable> = []

    init(provider: ApiProvider<TodoApi>) {
        self.provider = provider
    }

    /// Loads a page of titles, then calls `done` on the main queue.
    func load(page: Int, then done: @escaping () -> Void) {
        // snippet: combine door
        provider.publisher(on: .list(page: page), decodeBodyTo: [Todo].self)
            .map { todos in todos.map(\.title) }
            .receive(on: DispatchQueue.main)
            .sink(
                receiveCompletion: { [weak self] completion in
                    if case .failure(let error) = completion {
                        self?.errorMessage = error.localizedDescription
                    }
                    done()
                },
                receiveValue: { [weak self] titles in
                    self?.titles = titles
                }
            )
            .store(in: &cancellables)
        // end snippet
    }

    /// Opens one to-do through the raw door and CombineRequest's operators, then calls `done` on the main queue.
    func open(id: Int, then done: @escaping () -> Void) {
        // snippet: combine operators
        provider.dataResponsePublisher(on: .show(id: id))
            .validateStatusCode(in: 200..<300)
            .hasContentType("application/json")
            .decode(type: Todo.self, decoder: JSONDecoder())
            .receive(on: DispatchQueue.main)
            .sink(
                receiveCompletion: { [weak self] completion in
                    if case .failure(let error) = completion {
                        self?.errorMessage = error.localizedDescription
                    }
                    done()
                },
                receiveValue: { [weak self] todo in
                    self?.openedTodo = todo
                }
            )
            .store(in: &cancellables)
        // end snippet
    }
}
#endif
