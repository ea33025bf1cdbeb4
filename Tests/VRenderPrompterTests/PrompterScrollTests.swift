import Testing
@testable import VRenderPrompter
