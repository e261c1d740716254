package android.webkit;

/** Stub of android.webkit.WebViewClient. */
public class WebViewClient {
    public WebViewClient() { throw new RuntimeException("Stub!"); }
    public boolean shouldOverrideUrlLoading(WebView view, WebResourceRequest request) { throw new RuntimeException("Stub!"); }
}
