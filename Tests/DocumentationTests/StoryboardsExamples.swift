import ArchiveCoding
import Foundation
import InterfaceObjects
import NibLoading
import Testing

// The examples of `Sources/InterfaceObjects/InterfaceObjects.docc/StoryboardsAndNavigation.md` and
// `PortingUIKitCode.md`, on `Tests/DocumentationTests/Resources/Reading.storyboard`.

final class ShelfViewController: ViewController {
  var chosenTitle = "Emma"
  private(set) var returns = 0

  override func prepare(for segue: StoryboardSegue, sender: Any?) {
    segue.destination.title = chosenTitle
  }

  func unwindToShelf(_ segue: StoryboardSegue) { returns += 1 }

  override class var actions: [Action] { [Action("unwindToShelf:", unwindToShelf)] }
}

final class BookViewController: ViewController {
  @Outlet var doneButton: Button?
}

@Suite("Documentation: storyboards and navigation", .serialized)
struct StoryboardsExamples {
  init() {
    InterfaceCatalog.register()
    ClassRegistry.shared.register(ShelfViewController.self, as: "ShelfViewController")
    ClassRegistry.shared.register(BookViewController.self, as: "BookViewController")
  }

  @Test("DOC-035: the initial navigation controller loads its root; show pushes, the Done button's unwind pops")
  func navigation() throws {
    let storyboard = try Storyboard(name: "Reading", bundle: .module)
    let navigation = try storyboard.instantiateInitialViewController() as? NavigationController
    let shelf = navigation?.topViewController as? ShelfViewController

    try shelf?.performSegue(withIdentifier: "showBook", sender: nil)
    let book = navigation?.topViewController as? BookViewController  // pushed, titled by prepare(for:sender:)

    #expect(shelf != nil && book != nil)
    #expect(book?.title == "Emma")
    #expect(navigation?.viewControllers.count == 2)

    book?.doneButton?.sendActions(for: .touchUpInside)  // the button's unwind segue: back to the shelf

    #expect(shelf?.returns == 1)
    #expect(navigation?.viewControllers.count == 1 && navigation?.topViewController === shelf)
  }

  @Test("DOC-035: a scene is instantiated by its storyboard identifier")
  func sceneByIdentifier() throws {
    let storyboard = try Storyboard(name: "Reading", bundle: .module)
    let book = try storyboard.instantiateViewController(withIdentifier: "Book") as? BookViewController

    #expect(book?.doneButton?.title(for: .normal) == "Done")
    #expect(storyboard.identifiers.contains("Shelf"))
  }

  @Test("DOC-039: a view controller loads its view from the XIB it names, and reports a failed load")
  func viewControllerFromNib() throws {
    registerCardClasses()
    ClassRegistry.shared.register(DetailViewController.self, as: "DetailViewController")

    let detail = DetailViewController(nibName: "DetailViewController", bundle: .module)
    try detail.loadViewIfNeeded()

    #expect(detail.titleLabel?.text == "Title")
    #expect(detail.titleLabel?.superview === detail.view)
    let broken = CardsViewController(nibName: "ReferencedCard", bundle: .module)
    #expect(throws: ArchiveError.self, "the XIB does not connect the owner's view outlet") {
      try broken.loadViewIfNeeded()
    }
  }
}
