package android.view;

import android.content.Context;

/** Stub of android.view.View. */
public class View {
    public static final int IMPORTANT_FOR_ACCESSIBILITY_YES = 0x00000001;
    public interface OnClickListener {
        void onClick(View v);
    }
    public View(Context context) { throw new RuntimeException("Stub!"); }
    public final Context getContext() { throw new RuntimeException("Stub!"); }
    public void setOnClickListener(OnClickListener l) { throw new RuntimeException("Stub!"); }
    public void setEnabled(boolean enabled) { throw new RuntimeException("Stub!"); }
    public void setContentDescription(CharSequence contentDescription) { throw new RuntimeException("Stub!"); }
    public void setImportantForAccessibility(int mode) { throw new RuntimeException("Stub!"); }
    public void setAccessibilityHeading(boolean isHeading) { throw new RuntimeException("Stub!"); }
    public void setId(int id) { throw new RuntimeException("Stub!"); }
    public void setAccessibilityTraversalAfter(int afterId) { throw new RuntimeException("Stub!"); }
    public void setLayoutParams(ViewGroup.LayoutParams params) { throw new RuntimeException("Stub!"); }
    public static int generateViewId() { throw new RuntimeException("Stub!"); }
}
