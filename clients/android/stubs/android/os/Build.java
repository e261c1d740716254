package android.os;

/** Stub of android.os.Build (the VERSION fields used). */
public class Build {
    public static class VERSION {
        public static final int SDK_INT = Integer.parseInt("0"); // not a compile-time constant, as in android.jar
    }
    public static class VERSION_CODES {
        public static final int P = 28;
    }
}
