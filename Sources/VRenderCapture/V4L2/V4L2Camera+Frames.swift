#if canImport(Glibc)
import Glibc
#endif
internal import CV4L2
import VRenderCore
import VRenderMedia

extension V4L2Camera {
    /// Waits for the next frame (`poll`), VIDIOC_DQBUF, converts it into `destination` (a 4:2:0
    /// frame of `format`'s size; one without buffers is allocated) and VIDIOC_QBUF's the buffer
    /// back at once. Returns nil when the device is gone (ENODEV): the take ends cleanly.
    ///
    /// Buffers flagged V4L2_BUF_FLAG_ERROR, empty or undecodable are skipped and counted in
    /// `errorBuffers`; the sequence gap they leave shows in the next frame's `droppedBefore`.
    /// When nothing arrives within the clock's `pollTimeoutMilliseconds`, streaming is restarted (STREAMOFF,
    /// re-queue, STREAMON), up to `maximumRestarts` times, waiting longer each time, before this
    /// throws (after about 6 s without a frame at 25 fps).
    package func nextFrame(into destination: Frame) throws -> CapturedFrameInfo? {
        do {
            return try waitForFrame(into: destination)
        } catch let error as V4L2Error where error.isDeviceGone {
            ended = true
            streaming = false
            return nil
        } catch let error as V4L2Error {
            throw error.userError
        }
    }

    private func waitForFrame(into destination: Frame) throws -> CapturedFrameInfo? {
        if ended { return nil }
        if !streaming { try start() }
        var stalls = 0
        var waited = 0
        var skipped = 0
        while true {
            let timeout = clock.pollTimeoutMilliseconds(afterStalls: stalls)
            let events = try device.pollReadable(timeoutMilliseconds: timeout)
            if events == nil { waited += Int(timeout) }
            let buffer: v4l2_buffer?
            var queueFailed = false
            do {
                buffer = events == nil ? nil : try buffers.dequeue()
            } catch {
                // vb2 reports a queue in error state (signal loss, a driver fault) with EIO:
                // only restarting streaming recovers it, and one restart must do.
                guard error.code == EIO else { throw error }
                buffer = nil
                queueFailed = true
                stalls = max(stalls, Self.maximumRestarts - 1)
            }
            if let buffer {
                if let info = try deliver(buffer, into: destination) { return info }
                // Skipped (damaged). A long run of nothing but damaged buffers is a stall too.
                skipped += 1
                guard skipped >= 2 * buffers.count else { continue }
                skipped = 0
            } else {
                // A timeout, POLLERR with nothing to dequeue, or a failed queue: the stream has
                // stalled. A plain spurious wake-up (POLLIN, then EAGAIN) just polls again.
                let stalled = queueFailed || events.map { $0 & Int16(POLLERR) != 0 } ?? true
                guard stalled else { continue }
            }
            stalls += 1
            guard stalls <= Self.maximumRestarts else {
                let what = queueFailed ? "VIDIOC_DQBUF kept failing (I/O error)"
                    : waited > 0 ? "no frame arrived for \(Double(waited / 100) / 10) s"
                    : "the device delivered only damaged buffers"
                throw VRenderError(.runtime, subject: path,
                                   reason: "\(what), even after restarting streaming; is the camera (or its video signal) still there?")
            }
            try restartStreaming()
        }
    }

    /// STREAMOFF (which takes every buffer back), re-queue them all, STREAMON.
    func restartStreaming() throws {
        restarts += 1
        try buffers.streamOff()
        buffersQueued = false
        try buffers.enqueueAll()
        buffersQueued = true
        try buffers.streamOn()
        // The driver's sequence counter starts again from 0 after STREAMON.
        clock.streamRestarted()
    }

    /// Converts one dequeued buffer and re-queues it; nil when it was skipped.
    private func deliver(_ buffer: v4l2_buffer, into destination: Frame) throws -> CapturedFrameInfo? {
        let index = Int(buffer.index)
        var converted = false
        var conversionError: Error?
        if buffer.flags & UInt32(V4L2_BUF_FLAG_ERROR) == 0 {
            do {
                converted = try convert(index: index, used: Int(buffer.bytesused), into: destination)
            } catch {
                conversionError = error
            }
        }
        // Back to the driver before anything else, so it never runs short of buffers.
        try buffers.enqueue(index)
        if let conversionError { throw conversionError }
        guard converted else {
            errorBuffers += 1
            return nil
        }
        return timing(of: buffer)
    }

    /// Whether a picture was written (false: an empty, truncated or undecodable buffer).
    private func convert(index: Int, used: Int, into destination: Frame) throws -> Bool {
        let crop = controls.digitalCrop(width: picture.width, height: picture.height)
        if let layout = picture.raw {
            let bytes = buffers.bytes(of: index, used: used)
            let needed = RawPictureConverter.requiredBytes(layout: layout, width: picture.width, height: picture.height,
                                                           bytesPerLine: picture.bytesPerLine)
            guard bytes.count >= needed else { return false }
            try rawConverter.convert(bytes, layout: layout, width: picture.width, height: picture.height,
                                     bytesPerLine: picture.bytesPerLine, crop: crop, fullRange: picture.fullRange,
                                     into: destination)
            return true
        }
        guard used > 0, let mjpegDecoder else { return false }
        return try mjpegDecoder.decode(buffers.bytes(of: index, used: used), crop: crop, into: destination)
    }

    /// Time since the first frame (from the buffer's timestamp) and drops (from the sequence).
    private func timing(of buffer: v4l2_buffer) -> CapturedFrameInfo {
        var stamp = Double(buffer.timestamp.tv_sec) + Double(buffer.timestamp.tv_usec) / 1_000_000
        let monotonic = buffer.flags & UInt32(V4L2_BUF_FLAG_TIMESTAMP_MASK) == UInt32(V4L2_BUF_FLAG_TIMESTAMP_MONOTONIC)
        if stamp == 0 || !monotonic {
            // A driver that leaves timestamps empty, or stamps on a clock of its own: the
            // arrival time is the best there is (and is on the clock a microphone uses).
            var now = timespec()
            clock_gettime(CLOCK_MONOTONIC, &now)
            stamp = Double(now.tv_sec) + Double(now.tv_nsec) / 1_000_000_000
        }
        let info = clock.frame(timestamp: stamp, sequence: Int(buffer.sequence))
        advanceZoomRamp(to: info.time)
        return info
    }
}
