import VRenderCore
import VRenderFilters
import VRenderMedia

/// `vrender filters --preview`: one frame through every filter, as a labelled grid, to choose a
/// filter by eye.
public enum FilterPreview {
    /// Decodes the frame of `input` at `seconds`, runs each filter on it with the backend
    /// `backend` picks, and lays the results out `columns` to a row, each `width` pixels wide,
    /// labelled with the filter's name.
    public static func render(input: String, atSeconds seconds: Double, filters: [any VideoFilter],
                              backend: FilterBackendChoice, width: Int = 320, columns: Int = 5) throws -> (image: RGBImage, backend: String) {
        try FrameGrabber.frame(in: input, atSeconds: seconds) { decoded in
            // Filters take 4:2:0 limited range: convert whatever the file holds.
            let picture = try Frame.picture(width: decoded.width & ~1, height: decoded.height & ~1)
            try FrameNormalizer(canvasWidth: picture.width, canvasHeight: picture.height)
                .normalize(decoded, rotation: .none, into: picture)
            let thumbnailer = Thumbnailer()
            let output = try Frame.picture(width: picture.width, height: picture.height)
            var tiles: [(String, RGBImage)] = []
            var backendName = "cpu"
            for filter in filters {
                let executor = try FilterExecutors.make(chain: FilterChain([filter]), choice: backend, threads: 0,
                                                        width: picture.width, height: picture.height)
                backendName = executor.backendName
                try executor.run(source: picture.yuvImage(), destination: output.yuvImage())
                tiles.append((filter.descriptor.name, try thumbnailer.thumbnail(of: output, width: width)))
            }
            return (RGBImage.grid(tiles.map(\.1), labels: tiles.map(\.0), columns: columns), backendName)
        }
    }
}
