package android.view;

import android.content.Context;

/** Stub of android.view.ViewGroup. */
public abstract class ViewGroup extends View {
    public ViewGroup(Context context) { super(context); }
}
