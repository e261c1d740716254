package androidx.activity.result.contract;

import android.content.Context;
import android.content.Intent;

/**
 * Stub of androidx.activity.result.contract.ActivityResultContract (androidx.activity:activity 1.x): the two abstract
 * members as published; compile-time only.
 */
public abstract class ActivityResultContract<I, O> {
    public ActivityResultContract() { }
    public abstract Intent createIntent(Context context, I input);
    public abstract O parseResult(int resultCode, Intent intent);
}
