import VRenderCore
import VRenderExport
import VRenderFilters
import VRenderImaging
import VRenderMedia

/// The studio's filter choice: every filter applied to one picture of a take, as one labelled
/// PNG grid (what `vrender filters --preview` draws), sent to the page as bytes.
package enum FilterGrid {
    /// PNG bytes of every filter (`filters`, each at its defaults) on the middle frame of the
    /// take at `path`: tiles `tileWidth` wide, `columns` to a row. Errors name the take.
    package static func png(take path: String, filters: [any VideoFilter] = FilterRegistry.all,
                           backend: FilterBackendChoice = .cpu, tileWidth: Int = 240, columns: Int = 5) throws -> [UInt8] {
        try VRenderError.attributing(to: path, as: .input) {
            let middle = max(0, try Probe.probe(path).video.duration / 2)
            let grid = try FilterPreview.render(input: path, atSeconds: middle, filters: filters, backend: backend,
                                                width: tileWidth, columns: columns)
            return try PNGWriter.bytes(of: grid.image, subject: "filter grid of \(path)")
        }
    }
}
