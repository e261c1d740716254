package android.webkit;

/** Stub of android.webkit.WebSettings. */
public abstract class WebSettings {
    public abstract void setJavaScriptEnabled(boolean flag);
    public abstract void setDomStorageEnabled(boolean flag);
    public abstract void setMediaPlaybackRequiresUserGesture(boolean require);
    public abstract void setAllowFileAccess(boolean allow);
    public abstract void setAllowContentAccess(boolean allow);
    public abstract void setSupportMultipleWindows(boolean support);
    public abstract void setJavaScriptCanOpenWindowsAutomatically(boolean flag);
}
