package android;

/** Stub of android.Manifest. */
public final class Manifest {
    public static final class permission {
        public static final String CAMERA = "android.permission.CAMERA";
    }
}
