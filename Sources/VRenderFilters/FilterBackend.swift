import VRenderCore

/// `--gpu`: where filters run.
public enum FilterBackendChoice: String, Sendable, CaseIterable {
    /// A hardware Vulkan GPU when there is one, the CPU otherwise.
    case auto
    /// Any Vulkan device, a software one (lavapipe) included; an error when there is none.
    case vulkan
    /// The CPU only; Vulkan is never touched.
    case cpu
}

/// Runs a filter chain over whole pictures, on some backend. One executor serves one export
/// stage (one thread); the CPU and Vulkan executors give identical bytes.
public protocol FilterExecutor: AnyObject {
    /// "cpu", or the GPU's name.
    var backendName: String { get }
    /// Filters `source` into `destination` (same size and layout; may be the same picture).
    func run(source: YUVImage, destination: YUVImage) throws
}

/// The CPU backend: vectorized kernels split by rows across `threads` threads.
public final class CPUFilterExecutor: FilterExecutor {
    public let chain: FilterChain
    public let threads: Int
    public let backendName = "cpu"

    public init(chain: FilterChain, threads: Int) {
        self.chain = chain
        self.threads = threads
    }

    public func run(source: YUVImage, destination: YUVImage) throws {
        chain.run(source: source, destination: destination, threads: threads)
    }
}
