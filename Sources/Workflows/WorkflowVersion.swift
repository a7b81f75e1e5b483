/// The version eid reports in INFO.
public enum WorkflowVersion {
    public static let current = "0.1.0"
}
