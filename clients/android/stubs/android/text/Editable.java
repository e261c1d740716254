package android.text;

/** Stub of android.text.Editable (the members the sample reads: it is a CharSequence). */
public interface Editable extends CharSequence {
}
