/// The teleprompter's settings (placeholder; the model lands next).
public struct PrompterSettings: Sendable, Equatable {}
