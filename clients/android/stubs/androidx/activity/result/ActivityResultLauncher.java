package androidx.activity.result;

/**
 * Stub of androidx.activity.result.ActivityResultLauncher (androidx.activity:activity 1.x; the options overload of
 * launch is left out, nothing here uses it); compile-time only.
 */
public abstract class ActivityResultLauncher<I> {
    public ActivityResultLauncher() { }
    public void launch(I input) { throw new RuntimeException("Stub!"); }
    public abstract void unregister();
}
