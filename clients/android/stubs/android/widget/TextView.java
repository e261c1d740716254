package android.widget;

import android.content.Context;
import android.view.View;

/** Stub of android.widget.TextView. */
public class TextView extends View {
    public TextView(Context context) { super(context); }
    public final void setText(CharSequence text) { throw new RuntimeException("Stub!"); }
    public final void setHint(CharSequence hint) { throw new RuntimeException("Stub!"); }
    public void setSingleLine(boolean singleLine) { throw new RuntimeException("Stub!"); }
    public void setMaxLines(int maxLines) { throw new RuntimeException("Stub!"); }
}
