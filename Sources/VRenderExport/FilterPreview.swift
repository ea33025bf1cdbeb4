import VRenderCore
import VRenderImaging
import VRenderFilters
import VRenderMedia

/// `vrender filters --preview`: one frame through every filter, as a labelled grid, to choose a
/// filter by eye.
package enum FilterPreview {
    /// What `write` made: the grid's size, where the filters ran, and the time of the frame shown.
    package struct Written: Sendable, Equatable {
        package var width: Int
        package var height: Int
        /// "cpu" or "vulkan: <device>".
        package var backend: String
        /// The frame's time: the last frame's when `atSeconds` lies past the end.
        package var shownSeconds: Double
        /// The time asked for.
        package var requestedSeconds: Double
        /// How many filters the grid shows.
        package var filters: Int

        /// True when the time asked for lies past the end, so the last frame is shown instead
        /// (with 0.05 s of slack: the frame shown starts up to a frame before the time asked).
        package var isPastEnd: Bool { shownSeconds < requestedSeconds - 0.05 }
    }

    /// `vrender filters --preview`: renders the grid (see `render`) and writes it to the PNG
    /// file `output`. Errors name the input or the output file.
    @discardableResult
    package static func write(input: String, atSeconds seconds: Double, filters: [any VideoFilter] = FilterRegistry.all,
                             backend: FilterBackendChoice, to output: String) throws -> Written {
        let result = try VRenderError.attributing(to: input, as: .input) {
            try render(input: input, atSeconds: seconds, filters: filters, backend: backend)
        }
        try PNGWriter.write(result.image, to: output)
        return Written(width: result.image.width, height: result.image.height, backend: result.backend,
                       shownSeconds: result.shownSeconds, requestedSeconds: seconds, filters: filters.count)
    }

    /// Decodes the frame of `input` at `seconds` (the last one when the video is shorter: the
    /// result says which time it shows), runs each filter on it with the backend `backend`
    /// picks, and lays the results out `columns` to a row, each `width` pixels wide, labelled
    /// with the filter's name.
    package static func render(input: String, atSeconds seconds: Double, filters: [any VideoFilter],
                              backend: FilterBackendChoice, width: Int = 320,
                              columns: Int = 5) throws -> (image: RGBImage, backend: String, shownSeconds: Double) {
        try FrameGrabber.frame(in: input, atSeconds: seconds) { decoded, shownSeconds, info in
            // Filters take 4:2:0 limited range, upright: convert whatever the file holds.
            let upright = info.video.rotation.upright(width: info.video.sampleAspect.displayWidth(decoded.width) & ~1,
                                                      height: decoded.height & ~1)
            let picture = try Frame.picture(width: upright.width, height: upright.height)
            try FrameNormalizer(canvasWidth: picture.width, canvasHeight: picture.height, target: .bt709)
                .normalize(decoded, orientation: info.video.orientation, sampleAspect: info.video.sampleAspect,
                           colour: info.video.resolvedColour, into: picture)
            let thumbnailer = Thumbnailer()
            let output = try Frame.picture(width: picture.width, height: picture.height)
            var tiles: [(String, RGBImage)] = []
            var backendName = "cpu"
            for filter in filters {
                let executor = try FilterExecutors.make(chain: FilterChain([filter]), choice: backend,
                                                        threads: ThreadBudget.machine.pictureBands,
                                                        width: picture.width, height: picture.height)
                backendName = executor.backendName
                try executor.run(source: picture.yuvImage(), destination: output.yuvImage())
                tiles.append((filter.descriptor.name, try thumbnailer.thumbnail(of: output, width: width)))
            }
            return (RGBImage.grid(tiles.map(\.1), labels: tiles.map(\.0), columns: columns), backendName, shownSeconds)
        }
    }
}
