import VRenderCore
import VRenderFilters

extension ExportPlan {
    /// What a transcode's encoder and filter executor are made with, as the options asked
    /// (`--codec`, `--filter`, `--crf`, `--preset`, `--gpu`, `--filter-threads`). The planner
    /// sets it, so that a run (a chunk worker's too) reads the plan, never the options.
    package struct Encoding: Sendable {
        /// `--codec` as asked: under `copy`, damage met while copying is an error, not a transcode.
        package var codec: ExportOptions.CodecRequest = .auto
        package var filter = FilterChain([])
        package var crf: Int?
        /// `--preset`, or the one vrender encodes with when none is asked.
        package var preset = "veryfast"
        package var gpu: FilterBackendChoice = .auto
        /// Bands per picture for the CPU filter kernels; 0: the thread budget's (`filterBands`).
        package var filterThreads = 0
        /// `--for web|archive`: the encoder's tuning, the muxer's edit lists, the sound's codec.
        package var delivery: DeliveryTarget?
        package var deliveryOverrides: [String] = []

        init() {}

        init(_ options: ExportOptions) {
            codec = options.codec
            filter = options.filter
            crf = options.crf
            preset = options.preset ?? preset
            gpu = options.gpu
            filterThreads = options.filterThreads
            delivery = options.delivery
            deliveryOverrides = options.deliveryOverrides
        }
    }

    /// Where a run writes the output and what it may do there (`--overwrite`, the folder the
    /// caller holds, `--timings`), checked when the plan was made.
    package struct Writing: Sendable {
        package var overwrite = false
        /// `ExportOptions.outputFolder`: the output is made and renamed in that very folder.
        package var folder: FolderHandle?
        /// `--timings FILE`: where the run's stage timings are written.
        package var timingsOutput: String?

        init() {}

        init(_ options: ExportOptions) {
            overwrite = options.overwrite
            folder = options.outputFolder
            timingsOutput = options.timingsOutput
        }
    }

    /// Bands per picture for the CPU filter kernels: `--filter-threads`, or the thread budget's.
    package var filterBands: Int {
        encoding.filterThreads > 0 ? encoding.filterThreads : threads.pictureBands
    }
}
