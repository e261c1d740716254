package android.webkit;

/** Stub of android.webkit.WebChromeClient. */
public class WebChromeClient {
    public WebChromeClient() { throw new RuntimeException("Stub!"); }
    public void onPermissionRequest(PermissionRequest request) { throw new RuntimeException("Stub!"); }
    public void onCloseWindow(WebView window) { throw new RuntimeException("Stub!"); }
}
