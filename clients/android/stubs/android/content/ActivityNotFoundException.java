package android.content;

/** Stub of android.content.ActivityNotFoundException. */
public class ActivityNotFoundException extends RuntimeException {
    public ActivityNotFoundException() { throw new RuntimeException("Stub!"); }
}
