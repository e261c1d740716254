package androidx.browser.customtabs;

import android.content.Context;
import android.content.Intent;
import android.net.Uri;

/** Stub of androidx.browser.customtabs.CustomTabsIntent (androidx.browser:browser 1.x). */
public final class CustomTabsIntent {
    public final Intent intent = null;

    public void launchUrl(Context context, Uri url) { throw new RuntimeException("Stub!"); }

    public static final class Builder {
        public Builder() { throw new RuntimeException("Stub!"); }
        public Builder setShowTitle(boolean showTitle) { throw new RuntimeException("Stub!"); }
        public CustomTabsIntent build() { throw new RuntimeException("Stub!"); }
    }
}
