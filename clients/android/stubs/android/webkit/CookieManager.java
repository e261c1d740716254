package android.webkit;

/** Stub of android.webkit.CookieManager (signatures from developer.android.com, API 34; never shipped). */
public abstract class CookieManager {
    public static CookieManager getInstance() { throw new RuntimeException("Stub!"); }
    public abstract void setAcceptCookie(boolean accept);
    public abstract void setAcceptThirdPartyCookies(WebView webview, boolean accept);
    /** API 21. */
    public abstract void removeAllCookies(ValueCallback<Boolean> callback);
    /** API 21. */
    public abstract void flush();
}
