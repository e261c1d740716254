/// Baton's release identity.
public enum Baton {
    /// The version `baton --version` prints.
    public static let version = "0.1.0"
}
