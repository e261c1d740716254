package android.content;

import android.content.pm.PackageManager;

/** Stub of android.content.ContextWrapper. */
public class ContextWrapper extends Context {
    public ContextWrapper(Context base) { throw new RuntimeException("Stub!"); }
    @Override public SharedPreferences getSharedPreferences(String name, int mode) { throw new RuntimeException("Stub!"); }
    @Override public void startActivity(Intent intent) { throw new RuntimeException("Stub!"); }
    @Override public int checkSelfPermission(String permission) { throw new RuntimeException("Stub!"); }
    @Override public PackageManager getPackageManager() { throw new RuntimeException("Stub!"); }
    @Override public String getPackageName() { throw new RuntimeException("Stub!"); }
    @Override public Context getApplicationContext() { throw new RuntimeException("Stub!"); }
}
