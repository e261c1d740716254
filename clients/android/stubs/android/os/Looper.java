package android.os;

/** Stub of android.os.Looper. */
public final class Looper {
    private Looper() { }
    public static Looper getMainLooper() { throw new RuntimeException("Stub!"); }
}
