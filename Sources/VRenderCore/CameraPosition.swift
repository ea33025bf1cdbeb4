/// Which camera module (the seed's front/back cameras). Here rather than in VRenderCapture,
/// which drives the cameras, because takes.json records it and its readers (VRenderTakes, and
/// the exports above it) must not link the capture stack.
public enum CameraPosition: String, Sendable, Codable, CaseIterable {
    case back, front
}
