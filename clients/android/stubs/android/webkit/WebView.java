package android.webkit;

import android.content.Context;
import android.os.Bundle;
import android.widget.AbsoluteLayout;

/** Stub of android.webkit.WebView. */
public class WebView extends AbsoluteLayout {
    public WebView(Context context) { super(context); }
    public WebSettings getSettings() { throw new RuntimeException("Stub!"); }
    public void setWebChromeClient(WebChromeClient client) { throw new RuntimeException("Stub!"); }
    public void setWebViewClient(WebViewClient client) { throw new RuntimeException("Stub!"); }
    public void loadUrl(String url) { throw new RuntimeException("Stub!"); }
    public void stopLoading() { throw new RuntimeException("Stub!"); }
    public void destroy() { throw new RuntimeException("Stub!"); }
    public boolean canGoBack() { throw new RuntimeException("Stub!"); }
    public void goBack() { throw new RuntimeException("Stub!"); }
    public WebBackForwardList saveState(Bundle outState) { throw new RuntimeException("Stub!"); }
    public WebBackForwardList restoreState(Bundle inState) { throw new RuntimeException("Stub!"); }
}
