package android.os;

/** Stub of android.os.SystemClock. */
public final class SystemClock {
    public static long elapsedRealtime() { throw new RuntimeException("Stub!"); }
}
