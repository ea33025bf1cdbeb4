internal import CFFmpeg

extension Frame {
    /// The mean luma of a rectangle of the picture (clamped to it), 0 for black and 1 for white
    /// whatever the range (limited or full) and bit depth, reading every `step`th sample each
    /// way. Nil for a picture whose luma is not a plane of its own (RGB, packed YUV, big-endian
    /// words) or an empty rectangle. `vrender sync` reads the clapper's patch this way: the
    /// plane as decoded, no conversion.
    package func meanLuma(x: Int, y: Int, width: Int, height: Int, step: Int = 1) -> Double? {
        guard let layout = lumaLayout else { return nil }
        let left = max(0, x), top = max(0, y)
        let right = min(self.width, x + width), bottom = min(self.height, y + height)
        let step = max(1, step)
        guard right > left, bottom > top, let base = pointer.pointee.data.0 else { return nil }
        let stride = Int(pointer.pointee.linesize.0)
        var sum = 0.0, count = 0
        for row in Swift.stride(from: top, to: bottom, by: step) {
            let line = base + row * stride
            for column in Swift.stride(from: left, to: right, by: step) {
                sum += layout.wide ? Double(UnsafeRawPointer(line + 2 * column).loadUnaligned(as: UInt16.self))
                                   : Double(line[column])
                count += 1
            }
        }
        let value = (sum / Double(count) - layout.black) / (layout.white - layout.black)
        return min(1, max(0, value))
    }

    /// Plane 0 holds the luma, one sample per pixel in 1 or 2 little-endian bytes: its black
    /// and white levels, and whether samples are 2 bytes.
    private var lumaLayout: (black: Double, white: Double, wide: Bool)? {
        guard let descriptor = av_pix_fmt_desc_get(pixelFormat)?.pointee else { return nil }
        let flags = descriptor.flags
        let component = descriptor.comp.0
        let depth = Int(component.depth), bytes = (Int(component.depth) + 7) / 8
        guard flags & UInt64(AV_PIX_FMT_FLAG_RGB) == 0, flags & UInt64(AV_PIX_FMT_FLAG_PAL) == 0,
              flags & UInt64(AV_PIX_FMT_FLAG_BITSTREAM) == 0, flags & UInt64(AV_PIX_FMT_FLAG_BE) == 0 || bytes == 1,
              component.plane == 0, component.offset == 0, component.shift == 0, Int(component.step) == bytes,
              (1...16).contains(depth) else { return nil }
        let full = isFullRange || String(cString: descriptor.name).hasPrefix("yuvj") || descriptor.nb_components < 3
        let scale = Double(1 << max(0, depth - 8))
        if full { return (0, Double((1 << depth) - 1), bytes == 2) }
        return (16 * scale, 235 * scale, bytes == 2)
    }
}
