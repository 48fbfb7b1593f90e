import Courier

// snippet: mocks beside the conformance
extension TodoApi {
    // snippet: mockedResponse
    var mockedResponse: MockedResponse? {
        switch self {
        case .list: mock(status: .ok, bodyJson: #"[{"id":1,"title":"Buy milk"}]"#)
        case .show(let id): mock(status: .ok, bodyJson: #"{"id":\#(id),"title":"Buy milk"}"#)
        case .create(let todo): try? mock(status: .created, bodyEncodable: todo)
        case .delete: mock(status: .noContent)
        }
    }
    // end snippet
}
// end snippet
