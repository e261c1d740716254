package android.webkit;

/** Stub of android.webkit.WebStorage (developer.android.com, API 34: getInstance and deleteAllData since API 7). */
public class WebStorage {
    public static WebStorage getInstance() { throw new RuntimeException("Stub!"); }
    public void deleteAllData() { throw new RuntimeException("Stub!"); }
}
