package android.widget;

import android.content.Context;
import android.view.ViewGroup;

/** Stub of android.widget.FrameLayout (developer.android.com, API 34; never shipped). */
public class FrameLayout extends ViewGroup {
    public FrameLayout(Context context) { super(context); }
}
