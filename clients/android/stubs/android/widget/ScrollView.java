package android.widget;

import android.content.Context;

/** Stub of android.widget.ScrollView (developer.android.com, API 34; never shipped): addView is ViewGroup's. */
public class ScrollView extends FrameLayout {
    public ScrollView(Context context) { super(context); }
}
