package androidx.activity;

import android.app.Activity;
import androidx.activity.result.ActivityResultCallback;
import androidx.activity.result.ActivityResultLauncher;
import androidx.activity.result.contract.ActivityResultContract;

/**
 * Stub of androidx.activity.ComponentActivity (androidx.activity:activity 1.x; the ActivityResultCaller member an app
 * calls to launch VerificationJourneyContract); compile-time only, never shipped.
 */
public class ComponentActivity extends Activity {
    public ComponentActivity() { }
    public final <I, O> ActivityResultLauncher<I> registerForActivityResult(
        ActivityResultContract<I, O> contract, ActivityResultCallback<O> callback) {
        throw new RuntimeException("Stub!");
    }
}
