package android.app;

import android.content.ContextWrapper;
import android.content.Intent;
import android.os.Bundle;
import android.view.View;

/**
 * Stub of android.app.Activity (the ContextThemeWrapper level is folded into ContextWrapper). Signatures as published
 * on developer.android.com (API 34); compile-time only, never shipped.
 */
public class Activity extends ContextWrapper {
    public static final int RESULT_CANCELED = 0;
    public static final int RESULT_OK = -1;
    public Activity() { super(null); }
    protected void onCreate(Bundle savedInstanceState) { throw new RuntimeException("Stub!"); }
    protected void onNewIntent(Intent intent) { throw new RuntimeException("Stub!"); }
    protected void onResume() { throw new RuntimeException("Stub!"); }
    protected void onPause() { throw new RuntimeException("Stub!"); }
    protected void onDestroy() { throw new RuntimeException("Stub!"); }
    protected void onSaveInstanceState(Bundle outState) { throw new RuntimeException("Stub!"); }
    public void onBackPressed() { throw new RuntimeException("Stub!"); }
    public Intent getIntent() { throw new RuntimeException("Stub!"); }
    public void setIntent(Intent newIntent) { throw new RuntimeException("Stub!"); }
    public void setContentView(View view) { throw new RuntimeException("Stub!"); }
    public final void setResult(int resultCode) { throw new RuntimeException("Stub!"); }
    public final void setResult(int resultCode, Intent data) { throw new RuntimeException("Stub!"); }
    public boolean isFinishing() { throw new RuntimeException("Stub!"); }
    public boolean isChangingConfigurations() { throw new RuntimeException("Stub!"); }
    public void finish() { throw new RuntimeException("Stub!"); }
    public final void requestPermissions(String[] permissions, int requestCode) { throw new RuntimeException("Stub!"); }
    public void onRequestPermissionsResult(int requestCode, String[] permissions, int[] grantResults) {
        throw new RuntimeException("Stub!");
    }
}
