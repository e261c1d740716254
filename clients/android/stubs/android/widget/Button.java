package android.widget;

import android.content.Context;

/** Stub of android.widget.Button. */
public class Button extends TextView {
    public Button(Context context) { super(context); }
}
