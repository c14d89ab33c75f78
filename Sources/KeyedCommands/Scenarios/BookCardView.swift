import ArchiveCoding
import InterfaceObjects
import NibLoading

/// A book: what a card shows.
public struct Book: Hashable, Sendable {
  /// The title.
  public var title: String
  /// The cover image's name.
  public var coverName: String
  /// Creates a book.
  public init(title: String, coverName: String) {
    self.title = title
    self.coverName = coverName
  }
}

/// A card that can be built in code or loaded from `BookCardView.xib`; only ``book`` is public, and its setter
/// updates the subviews. In code the subviews are made in `init(frame:)` and placed by `layoutSubviews()` (the
/// cover takes 70% of the height, the title the rest); from the XIB they arrive through outlets before
/// `awakeFromNib()`. ``sharedSetup()`` runs once on both paths.
public final class BookCardView: View {
  /// The cover (an outlet, or made in code).
  public private(set) var coverImageView: ImageView?
  /// The title (an outlet, or made in code).
  public private(set) var titleLabel: Label?
  /// Which initialiser ran.
  public private(set) var initializer: String
  /// How many times ``sharedSetup()`` ran.
  public private(set) var setupCount = 0
  /// The book shown.
  public var book: Book? {
    didSet {
      titleLabel?.text = book?.title
      coverImageView?.image = book.map { Image(named: $0.coverName) }
    }
  }

  /// Builds the card in code.
  public override init(frame: Rect) {
    initializer = "init(frame:)"
    super.init(frame: frame)
    let cover = ImageView(frame: .zero)
    let title = Label(frame: .zero)
    addSubview(cover)
    addSubview(title)
    coverImageView = cover
    titleLabel = title
    sharedSetup()
  }

  /// Decodes the card; its subviews are connected later, so setup waits for `awakeFromNib()`.
  public required init(coder: any DecodingCoder) throws {
    initializer = "init(coder:)"
    try super.init(coder: coder)
  }

  /// Runs the shared setup once the outlets are connected.
  public override func awakeFromNib() {
    super.awakeFromNib()
    sharedSetup()
  }

  /// Setup common to both paths: styles the subviews.
  public func sharedSetup() {
    setupCount += 1
    titleLabel?.numberOfLines = 2
    coverImageView?.contentMode = .scaleAspectFill
    layer.cornerRadius = 8
  }

  /// Places the cover in the top 70% and the title in the rest.
  public override func layoutSubviews() {
    let coverHeight = (frame.height * 0.7).rounded()
    coverImageView?.frame = Rect(x: 0, y: 0, width: frame.width, height: coverHeight)
    titleLabel?.frame = Rect(x: 0, y: coverHeight, width: frame.width, height: frame.height - coverHeight)
  }

  /// Loads a card from `BookCardView.xib`.
  public static func make(bundle: NibBundle) throws -> BookCardView {
    guard let card = try bundle.loadNibNamed("BookCardView", owner: nil).first as? BookCardView else {
      throw ArchiveError(.typeMismatch, "BookCardView.xib has no BookCardView at its top level")
    }
    return card
  }

  /// `coverImageView`, `titleLabel`.
  public override class var keyValueAccessors: [String: KeyValueAccessor] {
    super.keyValueAccessors.merging(
      [
        "coverImageView": .custom(
          BookCardView.self, get: { $0.coverImageView },
          set: { card, value in card.coverImageView = value as? ImageView }),
        "titleLabel": .custom(
          BookCardView.self, get: { $0.titleLabel }, set: { card, value in card.titleLabel = value as? Label }),
      ], uniquingKeysWith: { $1 })
  }
}
