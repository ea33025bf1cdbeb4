import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// What the tests look for in a plot, read with Foundation's XML parser (a document that does
/// not parse fails the test): the stage of every line series and of every histogram.
final class SVGInspection: NSObject, XMLParserDelegate {
    private(set) var seriesStages: [String] = []
    private(set) var histogramStages: [String] = []
    private(set) var texts: [String] = []
    private var text = ""

    /// Nil when `data` is not well-formed XML.
    static func parse(_ data: Data) -> SVGInspection? {
        let inspection = SVGInspection()
        let parser = XMLParser(data: data)
        parser.delegate = inspection
        return parser.parse() ? inspection : nil
    }

    func parser(_ parser: XMLParser, didStartElement element: String, namespaceURI: String?, qualifiedName: String?,
                attributes: [String: String] = [:]) {
        text = ""
        if element == "polyline", attributes["class"] == "series", let stage = attributes["data-stage"] {
            seriesStages.append(stage)
        }
        if element == "g", attributes["class"] == "histogram", let stage = attributes["data-stage"] {
            histogramStages.append(stage)
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }

    func parser(_ parser: XMLParser, didEndElement element: String, namespaceURI: String?, qualifiedName: String?) {
        if element == "text" { texts.append(text) }
    }
}
