package android.content.pm;

import android.content.Intent;

/** Stub of android.content.pm.PackageManager. */
public abstract class PackageManager {
    public static final int PERMISSION_GRANTED = 0;
    public static final int PERMISSION_DENIED = -1;
    public abstract Intent getLaunchIntentForPackage(String packageName);
}
