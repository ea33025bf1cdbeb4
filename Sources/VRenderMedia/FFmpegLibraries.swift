internal import CFFmpeg

/// The FFmpeg this process runs with (not the headers it was built against): what
/// `vrender --version` and `vrender doctor` report.
package enum FFmpegLibraries {
    /// FFmpeg's release as its build names it, e.g. "5.1.9-0+deb12u1" on Debian 12.
    package static var release: String { String(cString: av_version_info()) }

    /// "libavformat 59.27.100, libavcodec 59.37.100, ...": the libraries vrender links.
    package static var libraryVersions: String {
        [("libavformat", avformat_version()), ("libavcodec", avcodec_version()), ("libavutil", avutil_version()),
         ("libswscale", swscale_version()), ("libswresample", swresample_version())]
            .map { "\($0.0) \(dotted($0.1))" }
            .joined(separator: ", ")
    }

    /// True when this FFmpeg has the encoder called `name` ("libx265", "aac").
    package static func hasEncoder(_ name: String) -> Bool {
        avcodec_find_encoder_by_name(name) != nil
    }

    /// AV_VERSION_INT's packing: major in bits 16 and up, minor in 8–15, micro in 0–7.
    private static func dotted(_ version: UInt32) -> String {
        "\(version >> 16).\((version >> 8) & 0xFF).\(version & 0xFF)"
    }
}
