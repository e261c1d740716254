package android.webkit;

import android.net.Uri;

/** Stub of android.webkit.WebResourceRequest (API 21). */
public interface WebResourceRequest {
    Uri getUrl();
    boolean isForMainFrame();
}
