import ArchiveCoding
import InterfaceObjects
import NibLoading

/// The inbox of the demo's `Mail.storyboard`: it passes the tapped message's subject to the message screen and the
/// unread count to the banner it embeds, in `prepare(for:sender:)`, as a UIKit app does.
public final class DemoInboxController: ViewController {
  /// Passes on the subject (the button's title) and the unread count.
  public override func prepare(for segue: StoryboardSegue, sender: Any?) {
    if let message = segue.destination as? DemoMessageController {
      message.subject = (sender as? Button)?.title(for: .normal)
    }
    (segue.destination as? DemoUnreadController)?.count = 2
  }
}

/// The message screen: shows the subject its inbox prepared it with, in `viewDidLoad()`.
public final class DemoMessageController: ViewController {
  /// The subject's label (an outlet).
  @Outlet public var subjectLabel: Label?
  /// Set by the inbox before the view loads.
  public var subject: String?
  /// Shows the subject.
  public override func viewDidLoad() {
    super.viewDidLoad()
    if let subject { subjectLabel?.text = subject }
  }
}

/// The banner the inbox embeds: shows the unread count its inbox prepared it with.
public final class DemoUnreadController: ViewController {
  /// The count's label (an outlet).
  @Outlet public var countLabel: Label?
  /// Set by the inbox before the view loads.
  public var count = 0
  /// Shows the count.
  public override func viewDidLoad() {
    super.viewDidLoad()
    countLabel?.text = "\(count) unread"
  }
}
