/// The version eid reports in INFO, `--version` and its User-Agent.
public enum EIDVersion {
    public static let current = "0.1.0"
}
