package android.view;

import android.content.Context;

/** Stub of android.view.View. */
public class View {
    public View(Context context) { throw new RuntimeException("Stub!"); }
}
