package android.content;

import android.net.Uri;

/** Stub of android.content.Intent. */
public class Intent {
    public static final String ACTION_VIEW = "android.intent.action.VIEW";
    public static final String CATEGORY_BROWSABLE = "android.intent.category.BROWSABLE";
    public static final int FLAG_ACTIVITY_NEW_TASK = 0x10000000;
    public static final int FLAG_ACTIVITY_CLEAR_TOP = 0x04000000;
    public static final int FLAG_ACTIVITY_SINGLE_TOP = 0x20000000;
    public Intent() { throw new RuntimeException("Stub!"); }
    public Intent(String action, Uri uri) { throw new RuntimeException("Stub!"); }
    public Intent(Context packageContext, Class<?> cls) { throw new RuntimeException("Stub!"); }
    public String getAction() { throw new RuntimeException("Stub!"); }
    public Uri getData() { throw new RuntimeException("Stub!"); }
    public String getDataString() { throw new RuntimeException("Stub!"); }
    public String getStringExtra(String name) { throw new RuntimeException("Stub!"); }
    public Intent putExtra(String name, String value) { throw new RuntimeException("Stub!"); }
    public Intent addCategory(String category) { throw new RuntimeException("Stub!"); }
    public Intent addFlags(int flags) { throw new RuntimeException("Stub!"); }
}
