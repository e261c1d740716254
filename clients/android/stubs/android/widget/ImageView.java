package android.widget;

import android.content.Context;
import android.view.View;

/** Stub of android.widget.ImageView. */
public class ImageView extends View {
    public ImageView(Context context) { super(context); }
}
