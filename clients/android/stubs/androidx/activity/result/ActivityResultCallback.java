package androidx.activity.result;

/** Stub of androidx.activity.result.ActivityResultCallback (androidx.activity:activity 1.x); compile-time only. */
public interface ActivityResultCallback<O> {
    void onActivityResult(O result);
}
