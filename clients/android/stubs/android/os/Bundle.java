package android.os;

/** Stub of android.os.Bundle. */
public final class Bundle {
    public Bundle() { throw new RuntimeException("Stub!"); }
}
