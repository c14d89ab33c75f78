import ArchiveCoding
import Foundation
import InterfaceObjects
import NibLoading

/// The demo's tour of `Mail.storyboard`: a tab bar controller whose first tab is a navigation controller, shown in a
/// window, a message tapped, the way back, the other tab; each step prints the view controllers' life-cycle calls in
/// the order they came, as the trace (`NibOptions.trace`) reports them (NIB-316).
enum MailTour {
  /// Runs the tour and describes it.
  /// - Throws: what opening the storyboard or instantiating its scenes throws.
  static func run(in bundle: NibBundle) throws -> String {
    let storyboard = try Storyboard(contentsOf: bundle.url(forStoryboardNamed: "Mail"))
    let log = Log()
    var options = NibOptions()
    options.trace = { log.events.append($0) }
    var text = "6. A storyboard's view controllers, as UIKit runs them\n"
    text +=
      "   Mail.storyboard: a tab bar controller (Tabs) with two tabs, a navigation controller (Mail) whose first\n"
    text += "   screen (Inbox) embeds an unread count (Unread) and shows a message (Message), and Settings.\n"
    text += "   Each line is one call, in order; \"…\" lines count what the nibs loaded in between did.\n"
    guard let tabs = try storyboard.instantiateInitialViewController(options: options) as? TabBarController,
      let mail = tabs.viewControllers?.first as? NavigationController,
      let inbox = mail.topViewController as? DemoInboxController
    else {
      throw ArchiveError(.other, "Mail.storyboard did not give the tab bar and navigation controllers it declares")
    }
    text += log.take("Instantiating the initial view controller (its scene and its tabs' scenes, no view yet):")
    let window = Window(frame: Rect(x: 0, y: 0, width: 320, height: 480))
    window.rootViewController = tabs
    window.makeKeyAndVisible()
    text += log.take("The window shows the tab bar controller (makeKeyAndVisible):")
    guard let button = inbox.view.subviews.first as? Button else {
      throw ArchiveError(.other, "the inbox has no message button")
    }
    button.sendActions(for: .touchUpInside)
    text += log.take("Tapping \"\(button.title(for: .normal) ?? "")\" (the button's show segue):")
    if let message = mail.topViewController as? DemoMessageController {
      text +=
        "   The message screen's label reads \"\(message.subjectLabel?.text ?? "")\": prepare(for:sender:) ran before its viewDidLoad.\n"
    }
    mail.popViewController()
    text += log.take("Back (the navigation controller pops):")
    tabs.tapTab(at: 1)
    text += log.take("Selecting the Settings tab:")
    return text + "\n"
  }

  /// The trace, printed step by step.
  private final class Log {
    var events: [NibEvent] = []

    private func count(_ number: Int, _ noun: String) -> String { "\(number) \(noun)\(number == 1 ? "" : "s")" }

    /// The events since the last step, under a heading: life-cycle calls one a line, what a nib did between two of
    /// them counted on one line.
    func take(_ heading: String) -> String {
      var text = "   \(heading)\n"
      var decoded = 0
      var outlets = 0
      var awoken = 0
      func flush() {
        guard decoded + outlets + awoken > 0 else { return }
        text +=
          "     … \(count(decoded, "object")) decoded, \(count(outlets, "outlet")) connected, \(count(awoken, "object")) sent awakeFromNib\n"
        (decoded, outlets, awoken) = (0, 0, 0)
      }
      for event in events {
        switch event {
        case .decode: decoded += 1
        case .outlet, .collection: outlets += 1
        case .awake: awoken += 1
        case .lifecycle:
          flush()
          text += "     \(event)\n"
        case .action, .segue, .attribute: break
        }
      }
      flush()
      events.removeAll()
      return text
    }
  }
}
