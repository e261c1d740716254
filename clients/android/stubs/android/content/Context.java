package android.content;

import android.content.pm.PackageManager;

/** Stub of android.content.Context (signatures from developer.android.com; never shipped). */
public abstract class Context {
    public static final int MODE_PRIVATE = 0x0000;
    public abstract SharedPreferences getSharedPreferences(String name, int mode);
    public abstract void startActivity(Intent intent);
    public abstract int checkSelfPermission(String permission);
    public abstract PackageManager getPackageManager();
    public abstract String getPackageName();
    public abstract Context getApplicationContext();
}
