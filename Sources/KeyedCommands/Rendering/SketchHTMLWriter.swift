/// Writes a ``Sketch`` as one standalone HTML page: the drawing, the object tree and the connection list, each
/// entry highlighting its object, or its connection's source and destination, in the drawing (CLI-092). The page's
/// only script is inline; it loads nothing.
enum SketchHTMLWriter {
  /// The page for a document named `title`.
  static func html(_ sketch: Sketch, title: String) -> String {
    var page = SVGMarkup()
    page.raw("<!DOCTYPE html>")
    page.open("html", [("lang", "en")])
    page.open("head")
    page.leaf("meta", [("charset", "utf-8")])
    page.leaf("title", text: "\(title) \u{2014} keyed render")
    page.raw("<style>\(style)</style>")
    page.close("head")
    page.open("body")
    page.open("main")
    page.open("section", [("id", "drawing")])
    page.raw(SketchSVGWriter.element(sketch))
    page.close("section")
    page.open("aside")
    page.leaf("h2", text: "Objects")
    page.open("ul", [("id", "objects"), ("class", "tree")])
    for placeholder in sketch.placeholders {
      entry(
        &page, id: placeholder.id, text: "\(placeholder.label) \u{2014} \(placeholder.className) (\(placeholder.id))")
    }
    for scene in sketch.scenes {
      page.open("li")
      page.leaf("a", [("href", "#"), ("data-target", scene.id)], text: "\(scene.caption) (\(scene.id))")
      if let root = scene.root {
        page.open("ul")
        tree(&page, root)
        page.close("ul")
      }
      page.close("li")
    }
    for other in sketch.others { entry(&page, id: other.id, text: "\(other.className) (\(other.id))") }
    page.close("ul")
    page.leaf("h2", text: "Connections")
    page.open("ol", [("id", "connections")])
    for connection in sketch.connections {
      var attributes: [SVGMarkup.Attribute] = [("href", "#"), ("data-kind", connection.kind)]
      attributes += [("data-source", connection.sourceID), ("data-destination", connection.destinationID ?? "")]
      let destination = connection.destinationID ?? "First Responder chain"
      page.open("li")
      page.leaf(
        "a", attributes,
        text: "\(connection.kind) \(connection.label): \(connection.sourceID) \u{2192} \(destination)")
      page.close("li")
    }
    page.close("ol")
    page.close("aside")
    page.close("main")
    page.raw("<script>\(script)</script>")
    page.close("body")
    page.close("html")
    return page.text
  }

  private static func entry(_ page: inout SVGMarkup, id: String, text: String) {
    page.open("li")
    page.leaf("a", [("href", "#"), ("data-target", id)], text: text)
    page.close("li")
  }

  private static func tree(_ page: inout SVGMarkup, _ node: Sketch.Node) {
    page.open("li")
    var text = "\(node.className) (\(node.id.isEmpty ? "code" : node.id))"
    if let shown = node.text ?? node.secondaryText, !shown.isEmpty { text += " \u{201C}\(shown)\u{201D}" }
    page.leaf("a", [("href", "#"), ("data-target", node.id)], text: text)
    if !node.children.isEmpty {
      page.open("ul")
      for child in node.children { tree(&page, child) }
      page.close("ul")
    }
    page.close("li")
  }

  private static let style = """
    body{margin:0;font:14px Helvetica,Arial,sans-serif;color:#222;background:#fafafa}\
    main{display:flex;align-items:flex-start;gap:16px;padding:16px}\
    #drawing{flex:0 0 auto;overflow:auto;max-width:70vw;background:#fff;border:1px solid #ccc}\
    aside{flex:1 1 auto;min-width:260px}aside h2{font-size:15px;margin:8px 0}\
    aside ul,aside ol{margin:0;padding-left:18px}aside a{color:#1a4fa0;text-decoration:none}\
    aside a.selected{background:#ffe9a8}\
    g.highlight-source>rect:first-of-type{stroke:#ff9500;stroke-width:3}\
    g.highlight-destination>rect:first-of-type{stroke:#00a65a;stroke-width:3}\
    path.highlight-source{stroke:#ff9500;stroke-width:4}
    """

  /// Highlights, on hover and on click, the drawn object of a tree entry, or the source (orange) and destination
  /// (green) of a connection entry, and a segue's arrow; `#object=ID` or `#connection=N` (counted from 0) in the
  /// page's address selects one when the page opens.
  ///
  /// The script has no `&`, `<` or `>`, so the page stays well-formed XML as well as HTML.
  private static let script = """
    (function () {
      var svg = document.querySelector('#drawing svg');
      function each(list, body) { Array.prototype.forEach.call(list, body); }
      function drawn(id) {
        if (!id) { return []; }
        return Array.prototype.filter.call(svg.querySelectorAll('[data-id]'), function (e) {
          return e.getAttribute('data-id') === id;
        });
      }
      function clear() {
        each(document.querySelectorAll('.highlight-source, .highlight-destination, .selected'), function (e) {
          e.classList.remove('highlight-source', 'highlight-destination', 'selected');
        });
      }
      function show(a) {
        clear();
        a.classList.add('selected');
        var source = a.getAttribute('data-target') || a.getAttribute('data-source');
        each(drawn(source), function (e) { e.classList.add('highlight-source'); });
        each(drawn(a.getAttribute('data-destination')), function (e) { e.classList.add('highlight-destination'); });
        if (a.getAttribute('data-kind') === 'segue') {
          var ends = [a.getAttribute('data-source'), a.getAttribute('data-destination')].join(' ');
          each(svg.querySelectorAll('path[data-kind="segue"]'), function (p) {
            var same = [p.getAttribute('data-source'), p.getAttribute('data-destination')].join(' ') === ends;
            if (same) { p.classList.add('highlight-source'); }
          });
        }
      }
      var entries = document.querySelectorAll('aside a');
      each(entries, function (a) {
        a.addEventListener('mouseenter', function () { show(a); });
        a.addEventListener('click', function (event) { event.preventDefault(); show(a); });
      });
      document.body.setAttribute('data-entries', String(entries.length));
      var wanted = /^#(object|connection)=(.+)$/.exec(location.hash);
      if (wanted) {
        var value = decodeURIComponent(wanted[2]);
        var found = wanted[1] === 'object'
          ? Array.prototype.filter.call(document.querySelectorAll('#objects a'), function (a) {
              return a.getAttribute('data-target') === value;
            })[0]
          : document.querySelectorAll('#connections a')[parseInt(value, 10)];
        if (found) { show(found); }
      }
    })();
    """
}
