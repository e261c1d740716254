package android.widget;

import android.content.Context;
import android.text.Editable;

/** Stub of android.widget.EditText. */
public class EditText extends TextView {
    public EditText(Context context) { super(context); }
    public Editable getText() { throw new RuntimeException("Stub!"); }
}
