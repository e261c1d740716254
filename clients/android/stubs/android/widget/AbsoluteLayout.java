package android.widget;

import android.content.Context;
import android.view.ViewGroup;

/** Stub of android.widget.AbsoluteLayout (WebView's superclass). */
public class AbsoluteLayout extends ViewGroup {
    public AbsoluteLayout(Context context) { super(context); }
}
